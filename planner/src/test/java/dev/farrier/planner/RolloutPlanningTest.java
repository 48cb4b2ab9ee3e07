package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.RolloutBatch;
import dev.farrier.model.RolloutScope;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A NodePool owned by a fleet upgrade: its drift is the rollout's alone, batch by batch, under the same budgets and
 * do-not-disrupt as ordinary drift.
 */
class RolloutPlanningTest {
  private static final String ROLLOUT = "upgrade/default/al2023@v20251103";
  private static final List<ResolvedImages> IMAGES = List.of(new ResolvedImages("default", "amd64", List.of("ami-new")));
  private static final NodePoolView OWNED = ownedBy(withBudgets(pool("default"), List.of(DisruptionBudget.of("100%"))), ROLLOUT);

  private static NodeClaimView drifted(String name, int hoursAgo) {
    return withTimes(onImage(claim(name, "default"), "ami-old"), NOW - hoursAgo * HOUR, null);
  }

  private static NodeClaimView current(String name) {
    return onImage(claim(name, "default"), "ami-new");
  }

  private static DisruptionSnapshot snapshot(List<NodePoolView> pools, List<NodeClaimView> claims) {
    return new DisruptionSnapshot(NOW, pools, claims, IMAGES);
  }

  private static RolloutBatch batch(List<NodePoolView> pools, List<NodeClaimView> claims, int max, List<String> only) {
    return new DisruptionPlanner().planRollout(snapshot(pools, claims), new RolloutScope(ROLLOUT, List.of("default"), max, only));
  }

  private static List<String> commanded(List<DisruptionCommand> commands) {
    return commands.stream().map(DisruptionCommand::nodeClaim).toList();
  }

  @Test
  void theReconcilerLeavesTheDriftOfAnOwnedNodePoolToItsRolloutAndSaysSo() {
    DisruptionPlan plan = new DisruptionPlanner().plan(snapshot(List.of(OWNED), List.of(drifted("a", 3), drifted("b", 2))));
    assertEquals(List.of(), plan.commands());
    CandidateDecision a = plan.decisions().stream().filter(d -> d.nodeClaim().equals("a")).findFirst().orElseThrow();
    assertTrue(a.reason().contains("held for rollout " + ROLLOUT), a.reason());
  }

  @Test
  void theReconcilerStillReplacesExpiredAndDeletedNodesOfAnOwnedNodePool() {
    NodeClaimView deleting = withFlags(drifted("gone", 1), true, true, false, false, false);
    DisruptionPlan plan = new DisruptionPlanner().plan(snapshot(List.of(OWNED), List.of(deleting)));
    assertEquals(List.of("gone"), commanded(plan.commands()));
  }

  @Test
  void aBatchTakesTheOldestDriftedNodesUpToItsSizeAndCountsWhatRemains() {
    RolloutBatch batch = batch(List.of(OWNED), List.of(drifted("young", 1), drifted("old", 9), drifted("mid", 5), current("new")), 2, List.of());
    assertEquals(List.of("old", "mid"), commanded(batch.commands()));
    assertEquals(3, batch.remaining());
    assertEquals(List.of("young"), batch.held().stream().map(CandidateDecision::nodeClaim).toList());
  }

  @Test
  void aBatchNeverExceedsTheDisruptionBudget() {
    NodePoolView oneAtATime = ownedBy(withBudgets(pool("default"), List.of(DisruptionBudget.of("1"))), ROLLOUT);
    RolloutBatch batch = batch(List.of(oneAtATime), List.of(drifted("a", 3), drifted("b", 2), drifted("c", 1)), 3, List.of());
    assertEquals(List.of("a"), commanded(batch.commands()));
    assertEquals(3, batch.remaining());
    assertTrue(batch.held().getFirst().reason().contains("budget exhausted"), batch.held().toString());
  }

  /**
   * A rolling rollout plans while its replacements run. One it started a moment ago may carry no taint yet and not be
   * listed by Temporal yet: the rollout names it, and it is neither planned again nor left out of the budget.
   */
  @Test
  void aReplacementTheRolloutStartedCountsAgainstTheBudgetAndIsNotPlannedAgainBeforeItShowsInTheCluster() {
    NodePoolView twoAtATime = ownedBy(withBudgets(pool("default"), List.of(DisruptionBudget.of("2"))), ROLLOUT);
    List<NodeClaimView> fleet = List.of(drifted("a", 3), drifted("b", 2), drifted("c", 1));
    RolloutBatch batch = new DisruptionPlanner().planRollout(snapshot(List.of(twoAtATime), fleet),
        new RolloutScope(ROLLOUT, List.of("default"), 3, List.of(), List.of("a")));
    assertEquals(List.of("b"), commanded(batch.commands()), "a is in flight, and it takes one of the budget's two");
    assertEquals(3, batch.remaining(), "the one in flight is still to be done");
    assertEquals(List.of("c"), batch.held().stream().map(CandidateDecision::nodeClaim).toList(),
        "the rollout's own replacement in flight does not wait");
    assertEquals(1, batch.heldCount());
  }

  /**
   * The answer is recorded in the rollout's history at every plan: it names the first waiting node and counts the
   * rest, rather than listing hundreds of decisions each time.
   */
  @Test
  void theAnswerNamesTheFirstWaitingNodeAndCountsTheOthers() {
    NodePoolView oneAtATime = ownedBy(withBudgets(pool("default"), List.of(DisruptionBudget.of("1"))), ROLLOUT);
    List<NodeClaimView> fleet = List.of(drifted("a", 5), drifted("b", 4), drifted("c", 3), drifted("d", 2));
    RolloutBatch batch = new DisruptionPlanner().planRollout(snapshot(List.of(oneAtATime), fleet),
        new RolloutScope(ROLLOUT, List.of("default"), 4, List.of(), List.of("a")));
    assertEquals(List.of(), batch.commands(), "a in flight takes the budget of one");
    assertEquals(4, batch.remaining());
    assertEquals(1, batch.held().size(), batch.held().toString());
    assertEquals("b", batch.held().getFirst().nodeClaim());
    assertTrue(batch.held().getFirst().reason().contains("budget exhausted"), batch.held().toString());
    assertEquals(3, batch.heldCount(), "b, c and d wait; a is the rollout's own");
  }

  @Test
  void doNotDisruptHoldsARolloutNodeWhichStillCountsAsRemaining() {
    NodeClaimView pinned = withFlags(drifted("pinned", 5), true, false, false, false, true);
    RolloutBatch batch = batch(List.of(OWNED), List.of(pinned), 2, List.of());
    assertEquals(List.of(), batch.commands());
    assertEquals(1, batch.remaining(), "a rollout is not done while a drifted node is held");
    assertTrue(batch.held().getFirst().reason().contains("do-not-disrupt"), batch.held().toString());
  }

  /**
   * A node an operator's abort marked ({@code farrier.dev/replacement-aborted}) is not replaced by the rollout, but it is
   * still on the old image: the rollout is not done while it is there, and says what holds it.
   */
  @Test
  void anAbortMarkHoldsARolloutNodeWhichStillCountsAsRemaining() {
    NodeClaimView marked = withFlags(drifted("marked", 5), true, false, false, true, false);
    RolloutBatch batch = batch(List.of(OWNED), List.of(marked, current("done")), 2, List.of());
    assertEquals(List.of(), batch.commands());
    assertEquals(1, batch.remaining(), "a rollout is not done while a drifted node is held by an abort mark");
    assertEquals(1, batch.heldCount());
    assertTrue(batch.held().getFirst().reason().contains("farrier.dev/replacement-aborted"), batch.held().toString());
  }

  @Test
  void aDriftedNodeNotInitializedYetStillCountsAsRemaining() {
    NodeClaimView launching = withFlags(drifted("launching", 0), false, false, false, false, false);
    RolloutBatch batch = batch(List.of(OWNED), List.of(launching), 2, List.of());
    assertEquals(List.of(), batch.commands());
    assertEquals(1, batch.remaining(), "it comes up on the old image: the rollout replaces it once it is initialized");
  }

  @Test
  void aRolloutDoesNotTouchANodePoolItDoesNotOwn() {
    NodePoolView other = ownedBy(withBudgets(pool("default"), List.of(DisruptionBudget.of("100%"))), "upgrade/default/al2023@v20991231");
    assertEquals(List.of(), batch(List.of(other), List.of(drifted("a", 3)), 2, List.of()).commands());
    NodePoolView unowned = withBudgets(pool("default"), List.of(DisruptionBudget.of("100%")));
    assertEquals(List.of(), batch(List.of(unowned), List.of(drifted("a", 3)), 2, List.of()).commands());
  }

  @Test
  void aRollbackReplacesOnlyTheNodesTheRolloutLaunched() {
    RolloutBatch batch = batch(List.of(OWNED), List.of(drifted("launched-1", 1), drifted("old", 9)), 5, List.of("launched-1"));
    assertEquals(List.of("launched-1"), commanded(batch.commands()));
    assertEquals(1, batch.remaining());
  }

  @Test
  void aNodeBeingReplacedIsNotPlannedAgainButRemains() {
    NodeClaimView replacing = new NodeClaimView("busy", "default", null, "node-busy", "i-busy", "ami-old", "amd64", null, "on-demand",
        "m5.large", "us-west-2a", true, true, false, true, false, false, NOW - HOUR, null, null, null, new PodsOnNode(1, 1, List.of()),
        true, false);
    RolloutBatch batch = batch(List.of(OWNED), List.of(replacing), 2, List.of());
    assertEquals(List.of(), batch.commands());
    assertEquals(1, batch.remaining());
  }

  @Test
  void aChangeFreezeHoldsVoluntaryDriftInItsNodePoolOrTheWholeClusterButNotDeletion() {
    NodePoolView open = withBudgets(pool("default"), List.of(DisruptionBudget.of("100%")));
    NodeClaimView deleting = withFlags(drifted("gone", 1), true, true, false, false, false);
    var claims = List.of(drifted("a", 3), deleting);
    var poolFrozen = new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(open), claims, IMAGES,
        java.util.Map.of("default", "frozen nodepool default since ... by alice: incident")));
    assertEquals(List.of("gone"), commanded(poolFrozen.commands()));
    assertTrue(poolFrozen.decisions().stream().anyMatch(d -> d.nodeClaim().equals("a") && d.reason().contains("held: frozen nodepool default")),
        poolFrozen.decisions().toString());
    var clusterFrozen = new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(open), List.of(drifted("a", 3)), IMAGES,
        java.util.Map.of("*", "frozen cluster-wide")));
    assertEquals(List.of(), clusterFrozen.commands());
    var otherFrozen = new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(open), List.of(drifted("a", 3)), IMAGES,
        java.util.Map.of("gpu", "frozen nodepool gpu")));
    assertEquals(List.of("a"), commanded(otherFrozen.commands()));
  }
}
