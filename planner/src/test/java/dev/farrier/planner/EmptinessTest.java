package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.planner.ClaimConditions.StatusCondition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Empty-node consolidation as Karpenter v1's emptiness: a node with no pod that needs a new home is deleted once
 * {@code consolidateAfter} has passed since its last pod event, under the budgets for {@code Empty}, never while it
 * holds room for pods on their way, and the Consolidatable condition says when.
 */
class EmptinessTest {
  private static final List<ResolvedImages> IMAGES = List.of(new ResolvedImages("default", "amd64", List.of("ami-new")));
  private static final long SECOND = 1_000L;
  private static final PodsOnNode DAEMONS_ONLY = new PodsOnNode(2, 0, List.of());

  private static NodePoolView emptyIn(List<DisruptionBudget> budgets) {
    return withBudgets(Fixtures.pool("default"), budgets).withConsolidation("WhenEmpty", "0s");
  }

  private static NodePoolView pool(String policy, String after) {
    return Fixtures.pool("default").withConsolidation(policy, after);
  }

  /** An initialized claim whose last pod event was {@code secondsAgo}, with {@code pods}. */
  private static NodeClaimView node(String name, long secondsAgo, PodsOnNode pods) {
    return withPods(claim(name, "default"), pods).withPodEvents(NOW - HOUR, NOW - secondsAgo * SECOND, null);
  }

  private static DisruptionPlan plan(NodePoolView pool, NodeClaimView... claims) {
    return new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(pool), List.of(claims), IMAGES));
  }

  private static String decision(DisruptionPlan plan, String claim) {
    return plan.decisions().stream().filter(d -> d.nodeClaim().equals(claim)).map(CandidateDecision::reason).findFirst().orElseThrow();
  }

  @ParameterizedTest(name = "{0}, consolidateAfter {1}, last pod event {2}s ago, {3} pods to move: deleted={4}")
  @CsvSource({
      "WhenEmpty,                30s,   31, 0, true",
      "WhenEmpty,                30s,   30, 0, true",
      "WhenEmpty,                30s,   29, 0, false",
      "WhenEmptyOrUnderutilized, 0s,     0, 0, true",
      "WhenEmptyOrUnderutilized, 1m,    59, 0, false",
      "WhenEmptyOrUnderutilized, 1m,    61, 0, true",
      "WhenEmpty,                Never, 99999, 0, false",
      "WhenEmpty,                30s,  999, 1, false",
      "WhenEmptyOrUnderutilized, 30s,  999, 3, false",
  })
  void anEmptyNodeIsDeletedOnceConsolidateAfterHasPassed(String policy, String after, long secondsAgo, int reschedulable,
      boolean deleted) {
    var plan = plan(pool(policy, after), node("n", secondsAgo, new PodsOnNode(reschedulable + 1, reschedulable, List.of())));
    assertEquals(deleted, !plan.commands().isEmpty(), decision(plan, "n"));
    if (deleted) {
      DisruptionCommand c = plan.commands().getFirst();
      assertEquals(DisruptionMethod.DELETE, c.method());
      assertEquals("empty", c.reason());
      assertTrue(c.consolidation());
    }
  }

  @Test
  void whyNotIsSaidForEveryCase() {
    assertTrue(decision(plan(pool("WhenEmpty", "30s"), node("n", 10, DAEMONS_ONLY)), "n")
        .contains("empty but consolidateAfter 30s not reached"));
    assertTrue(decision(plan(pool("WhenEmpty", "30s"), node("n", 10, new PodsOnNode(3, 2, List.of()))), "n")
        .contains("not empty: 2 pods would need a new home"));
    assertTrue(decision(plan(pool("WhenEmpty", "Never"), node("n", 10, DAEMONS_ONLY)), "n")
        .contains("consolidateAfter Never: consolidation is off"));
  }

  @Test
  void withoutAPodEventTheTimeCountsFromInitialization() {
    var justUp = withPods(claim("n", "default"), DAEMONS_ONLY).withPodEvents(NOW - 20 * SECOND, null, null);
    assertTrue(plan(pool("WhenEmpty", "30s"), justUp).commands().isEmpty());
    var upLongAgo = withPods(claim("n", "default"), DAEMONS_ONLY).withPodEvents(NOW - 40 * SECOND, null, null);
    assertEquals(1, plan(pool("WhenEmpty", "30s"), upLongAgo).commands().size());
  }

  @Test
  void aNodeHoldingRoomForPodsOnTheirWayIsNeverEmpty() {
    var nominated = withPods(claim("n", "default"), PodsOnNode.NONE)
        .withPodEvents(NOW - HOUR, null, "launched for pods still on node old, which is being disrupted");
    var plan = plan(pool("WhenEmpty", "0s"), nominated);
    assertTrue(plan.commands().isEmpty());
    assertTrue(decision(plan, "n").contains("nominated: launched for pods still on node old"), decision(plan, "n"));
  }

  @Test
  void emptyNodesTakeTheBudgetForEmptyAndDoNotDisruptHoldsThem() {
    var budgets = emptyIn(List.of(DisruptionBudget.of("1", "Empty"), DisruptionBudget.of("5")));
    var plan = plan(budgets, node("a", 60, DAEMONS_ONLY), node("b", 60, DAEMONS_ONLY), node("c", 60, DAEMONS_ONLY));
    assertEquals(1, plan.commands().size());
    assertTrue(decision(plan, "b").contains("budget exhausted: budget 1 allows 1, 1 already disrupting"), decision(plan, "b"));
    // A budget of 0 for Drifted does not hold emptiness; one of 0 for Empty does.
    var driftOnly = emptyIn(List.of(DisruptionBudget.of("0", "Drifted")));
    assertEquals(2, plan(driftOnly, node("a", 60, DAEMONS_ONLY), node("b", 60, DAEMONS_ONLY)).commands().size());
    var noEmpty = emptyIn(List.of(DisruptionBudget.of("0", "Empty")));
    assertEquals(0, plan(noEmpty, node("a", 60, DAEMONS_ONLY)).commands().size());

    var held = withFlags(node("a", 60, DAEMONS_ONLY), true, false, false, false, true)
        .withPodEvents(NOW - HOUR, NOW - 60 * SECOND, null);
    var heldPlan = plan(pool("WhenEmpty", "0s"), held);
    assertTrue(heldPlan.commands().isEmpty());
    assertTrue(decision(heldPlan, "a").contains("blocked by karpenter.sh/do-not-disrupt on the node"), decision(heldPlan, "a"));
  }

  @Test
  void aChangeFreezeHoldsEmptinessAndARolloutNeverDeletesEmptyNodes() {
    var frozen = new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(pool("WhenEmpty", "0s")),
        List.of(node("a", 60, DAEMONS_ONLY)), IMAGES, Map.of("default", "frozen by ci")));
    assertTrue(frozen.commands().isEmpty());
    var rollout = new DisruptionPlanner().planRollout(new DisruptionSnapshot(NOW, List.of(pool("WhenEmpty", "0s")),
        List.of(node("a", 60, DAEMONS_ONLY)), IMAGES), new dev.farrier.model.RolloutScope("upgrade/x", List.of("default"), 5,
        List.of()));
    assertTrue(rollout.commands().isEmpty());
  }

  @Test
  void aDriftedEmptyNodeIsReplacedForDriftNotDeletedAsEmpty() {
    var drifted = onImage(node("a", 60, DAEMONS_ONLY), "ami-old");
    var plan = plan(pool("WhenEmpty", "0s"), drifted);
    assertEquals("drifted", plan.commands().getFirst().reason());
  }

  @Test
  void theConsolidatableConditionSaysWhen() {
    var pool = pool("WhenEmpty", "30s");
    assertEquals(new StatusCondition("Consolidatable", true, "Consolidatable",
            "consolidateAfter 30s passed (last pod event at 2027-01-15T07:59:20Z)"),
        consolidatable(pool, node("a", 40, DAEMONS_ONLY)));
    assertEquals(new StatusCondition("Consolidatable", false, "ConsolidateAfterNotReached",
            "consolidateAfter 30s not reached: last pod event at 2027-01-15T07:59:50Z, consolidatable from 2027-01-15T08:00:20Z"),
        consolidatable(pool, node("a", 10, new PodsOnNode(3, 2, List.of()))));
    var never = DisruptionConditions.of(new DisruptionSnapshot(NOW, List.of(pool("WhenEmpty", "Never")),
        List.of(node("a", 10, DAEMONS_ONLY)), IMAGES)).getFirst();
    assertTrue(never.removed().contains("Consolidatable"), "consolidateAfter Never removes it, as Karpenter does");
    var notUp = withFlags(node("a", 10, DAEMONS_ONLY), false, false, false, false, false);
    var conditions = DisruptionConditions.of(new DisruptionSnapshot(NOW, List.of(pool), List.of(notUp), IMAGES)).getFirst();
    assertTrue(conditions.removed().contains("Consolidatable"));
    assertFalse(conditions.set().stream().anyMatch(c -> c.type().equals("Consolidatable")));
  }

  private static StatusCondition consolidatable(NodePoolView pool, NodeClaimView claim) {
    return DisruptionConditions.of(new DisruptionSnapshot(NOW, List.of(pool), List.of(claim), IMAGES)).getFirst().set().stream()
        .filter(c -> c.type().equals("Consolidatable")).findFirst().orElseThrow();
  }
}
