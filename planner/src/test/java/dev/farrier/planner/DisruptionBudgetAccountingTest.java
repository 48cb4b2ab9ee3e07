package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionPlan;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Budgets count every node already being disrupted, whatever step it is in, once: a replacement that has not tainted
 * its node yet, a taint whose replacement is gone (planned again without taking a second unit), a claim being deleted
 * before it initialized, and a replacement that completed moments ago (never planned a second time).
 */
class DisruptionBudgetAccountingTest {
  private static final List<ResolvedImages> IMAGES = List.of(new ResolvedImages("default", "amd64", List.of("ami-new")));
  private static final NodePoolView ONE_AT_A_TIME = withBudgets(pool("default"), List.of(DisruptionBudget.of("1")));

  private static DisruptionPlan plan(List<NodeClaimView> claims) {
    return new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(ONE_AT_A_TIME), claims, IMAGES));
  }

  /** A drifted claim created {@code hoursAgo}; older ones come first for the budget. */
  private static NodeClaimView drifted(String name, int hoursAgo) {
    return withTimes(onImage(claim(name, "default"), "ami-old"), NOW - hoursAgo * HOUR, null);
  }

  private static NodeClaimView replaced(NodeClaimView c, boolean tainted, boolean active) {
    return new NodeClaimView(c.name(), c.nodePool(), c.nodeClassName(), c.nodeName(), c.instanceId(), c.imageId(), c.arch(),
        c.nodePoolHash(), c.capacityType(), c.instanceType(), c.zone(), c.registered(), c.initialized(), c.deleting(),
        tainted, c.aborted(), c.doNotDisrupt(), c.createdAtMillis(), c.driftedSinceMillis(), c.expireAfter(),
        c.terminationGracePeriodSeconds(), c.pods(), active, false);
  }

  /** The claim with EC2's rebalance recommendation (its NodePool opted in). */
  static NodeClaimView rebalance(NodeClaimView c) {
    return new NodeClaimView(c.name(), c.nodePool(), c.nodeClassName(), c.nodeName(), c.instanceId(), c.imageId(), c.arch(),
        c.nodePoolHash(), c.capacityType(), c.instanceType(), c.zone(), c.registered(), c.initialized(), c.deleting(),
        c.disruptedTaint(), c.aborted(), c.doNotDisrupt(), c.createdAtMillis(), c.driftedSinceMillis(), c.expireAfter(),
        c.terminationGracePeriodSeconds(), c.pods(), c.replacementActive(), true);
  }

  private static List<String> commanded(DisruptionPlan plan) {
    return plan.commands().stream().map(DisruptionCommand::nodeClaim).toList();
  }

  private static String reason(DisruptionPlan plan, String claim) {
    return plan.decisions().stream().filter(d -> d.nodeClaim().equals(claim)).map(CandidateDecision::reason).findFirst().orElseThrow();
  }

  @Test
  void aReplacementThatHasNotTaintedItsNodeYetHoldsTheBudget() {
    List<NodeClaimView> claims = List.of(replaced(drifted("starting", 9), false, true), drifted("a", 8), drifted("b", 7));

    DisruptionPlan plan = plan(claims);

    assertEquals(List.of(), commanded(plan));
    assertTrue(reason(plan, "a").endsWith("budget 1 allows 1, 1 already disrupting"), reason(plan, "a"));
    assertTrue(reason(plan, "starting").startsWith("already being disrupted"), reason(plan, "starting"));
  }

  @Test
  void aTaintLeftByAGoneReplacementHoldsItsUnitAndIsPlannedAgainWithoutASecond() {
    // The stale node is the youngest: were it not counted, the older "a" would take the only unit.
    List<NodeClaimView> claims = List.of(drifted("a", 8), drifted("b", 7), replaced(drifted("stale", 1), true, false));

    DisruptionPlan plan = plan(claims);

    assertEquals(List.of("stale"), commanded(plan));
    assertTrue(reason(plan, "a").endsWith("budget 1 allows 1, 1 already disrupting"), reason(plan, "a"));
  }

  @Test
  void aClaimBeingDeletedBeforeItInitializedCounts() {
    NodeClaimView leaving = withFlags(claim("leaving", "default"), false, true, false, false, false);
    List<NodeClaimView> claims = List.of(leaving, drifted("a", 8), drifted("b", 7));

    DisruptionPlan plan = plan(claims);

    assertEquals(List.of("leaving"), commanded(plan), "a deletion is never budget-limited, but it takes the unit");
    assertTrue(reason(plan, "a").contains("budget exhausted"), reason(plan, "a"));
  }

  @Test
  void aReplacementThatJustCompletedIsNeverPlannedAgainFromAStaleSnapshot() {
    // The snapshot still shows the node, tainted, after disrupt/<claim> completed and deleted it.
    List<NodeClaimView> claims = List.of(replaced(drifted("done", 9), true, true));

    DisruptionPlan plan = plan(claims);

    assertEquals(List.of(), commanded(plan));
    assertTrue(reason(plan, "done").startsWith("already being disrupted"), reason(plan, "done"));
  }

  @ParameterizedTest
  @CsvSource({"50%, 0", "80%, 4", "100%, 8"})
  void theBudgetIsNeverExceededWhateverMixOfStepsIsUnderWay(String budget, int newlyDisrupted) {
    List<NodeClaimView> claims = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      NodeClaimView c = drifted("n" + i, 30 - i);
      claims.add(switch (i % 5) {
        case 0 -> replaced(c, false, true);
        case 1 -> replaced(c, true, false);
        case 2 -> replaced(c, true, true);
        default -> c;
      });
    }
    var pool = withBudgets(pool("default"), List.of(DisruptionBudget.of(budget)));

    DisruptionPlan plan = new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(pool), claims, IMAGES));

    assertEquals(12, claims.stream().filter(NodeClaimView::beingDisrupted).count(), "4 starting, 4 stale taints, 4 running");
    long added = plan.commands().stream()
        .filter(c -> claims.stream().noneMatch(v -> v.name().equals(c.nodeClaim()) && v.beingDisrupted())).count();
    assertEquals(newlyDisrupted, added, plan.commands().toString());
  }

  @Test
  void aRebalanceRecommendationIsAVoluntaryDisruptionWithinTheBudget() {
    List<NodeClaimView> claims = List.of(rebalance(claim("r1", "default")), rebalance(claim("r2", "default")), claim("c", "default"));

    DisruptionPlan plan = plan(claims);

    assertEquals(1, plan.commands().size(), "budget 1: one at a time");
    assertEquals("rebalance", plan.commands().getFirst().reason());
    String refused = plan.commands().getFirst().nodeClaim().equals("r1") ? "r2" : "r1";
    assertEquals("rebalance recommended but budget exhausted: budget 1 allows 1, 1 already disrupting", reason(plan, refused));
  }

  @Test
  void aRebalanceRecommendationNeverDisruptsADoNotDisruptNodeOrPod() {
    NodeClaimView pinnedNode = rebalance(withFlags(claim("node", "default"), true, false, false, false, true));
    NodeClaimView pinnedPod = rebalance(withPods(claim("pod", "default"), new PodsOnNode(3, 2, List.of("db/postgres-0"))));

    DisruptionPlan plan = plan(List.of(pinnedNode, pinnedPod));

    assertEquals(List.of(), commanded(plan));
    assertEquals("rebalance recommended but blocked by karpenter.sh/do-not-disrupt on the node", reason(plan, "node"));
    assertEquals("rebalance recommended but blocked by karpenter.sh/do-not-disrupt on pod db/postgres-0", reason(plan, "pod"));
  }

  @Test
  void aRebalanceTakesTheBudgetsThatNameNoReasonAndTheDefaultWhenOnlyReasonScopedOnesExist() {
    var driftOnly = withBudgets(pool("default"), List.of(new DisruptionBudget("100%", List.of("Drifted"), null, null)));
    List<NodeClaimView> claims = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      claims.add(rebalance(claim("n" + i, "default")));
    }

    DisruptionPlan plan = new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(driftOnly), claims, IMAGES));

    assertEquals(1, plan.commands().size(), "Karpenter's default 10% of 10, not the Drifted budget's 100%: " + plan.commands());
  }
}
