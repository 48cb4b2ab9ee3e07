package dev.farrier.planner;

import dev.farrier.model.GoDurations;
import static dev.farrier.planner.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionPlan;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The boundaries of the disruption decisions that the mutation tests found unguarded (docs/MUTATION.md). */
class PlannerEdgesTest {
  private static final List<ResolvedImages> IMAGES = List.of(new ResolvedImages("default", "amd64", List.of("ami-new")));

  private static DisruptionPlan plan(NodePoolView pool, List<NodeClaimView> claims) {
    return new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(pool), claims, IMAGES));
  }

  @Test
  void anExpiredNodeTakesAUnitOfTheBudgetSoTheDriftedOneWaits() {
    NodeClaimView expired = withTimes(claim("old", "default"), NOW - 800 * HOUR, null);
    NodeClaimView drifted = withTimes(onImage(claim("drifted", "default"), "ami-old"), NOW - 2 * HOUR, null);

    DisruptionPlan plan = plan(withExpireAfter(withBudgets(pool("default"), List.of(DisruptionBudget.of("1"))), "720h"),
        List.of(expired, drifted));

    assertEquals(List.of("old"), plan.commands().stream().map(DisruptionCommand::nodeClaim).toList());
  }

  @Test
  void commandsComeOldestFirst() {
    List<NodeClaimView> claims = List.of(withTimes(onImage(claim("young", "default"), "ami-old"), NOW - HOUR, null),
        withTimes(onImage(claim("old", "default"), "ami-old"), NOW - 5 * HOUR, null),
        withTimes(onImage(claim("middle", "default"), "ami-old"), NOW - 3 * HOUR, null));

    DisruptionPlan plan = plan(withBudgets(pool("default"), List.of(DisruptionBudget.of("100%"))), claims);

    assertEquals(List.of("old", "middle", "young"), plan.commands().stream().map(DisruptionCommand::nodeClaim).toList());
  }

  @Test
  void aNodeExpiresAtTheMillisecondItsExpireAfterEnds() {
    NodePoolView pool = withExpireAfter(pool("default"), "1h");
    assertNull(Expiry.of(withTimes(claim("a", "default"), NOW - HOUR + 1, null), pool, NOW));
    assertEquals(true, Expiry.of(withTimes(claim("a", "default"), NOW - HOUR, null), pool, NOW) != null);
  }

  @Test
  void aBudgetOfZeroAllowsNoneAndSaysSoAndOneItCannotReadIsReadAsZero() {
    assertEquals("budget 0 allows 0, 0 already disrupting", BudgetCheck.of(List.of(DisruptionBudget.of("0")), "Drifted", 5, 0, NOW).explanation());
    BudgetCheck unreadable = BudgetCheck.of(List.of(DisruptionBudget.of("abc")), "Drifted", 5, 0, NOW);
    assertEquals(0, unreadable.allowed());
    assertEquals("budget \"abc\" (not a count or percentage, read as 0) allows 0, 0 already disrupting", unreadable.explanation());
    assertEquals(0, BudgetCheck.of(List.of(new DisruptionBudget(null, List.of(), null, null)), "Drifted", 5, 0, NOW).allowed());
  }

  @Test
  void goDurationsReadEveryUnit() {
    assertEquals(5_400_000L, GoDurations.toMillis("1h30m"));
    assertEquals(90_000L, GoDurations.toMillis("1m30s"));
    assertEquals(1_500L, GoDurations.toMillis("1.5s"));
    assertEquals(250L, GoDurations.toMillis("250ms"));
    assertNull(GoDurations.toMillis("Never"));
    assertNull(GoDurations.toMillis("10x"));
    assertNull(GoDurations.toMillis(" "));
  }
}
