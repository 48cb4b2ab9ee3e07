package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.RolloutBatch;
import dev.farrier.model.RolloutPreview.PreviewEstimate;
import dev.farrier.model.RolloutScope;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

/** A rollout's preview plays the rollout's own planner forward: the same batches the rollout gets, one after another. */
class RolloutSimulationTest {
  private static final String ROLLOUT = "upgrade/default/al2023@v20251103";
  private static final List<ResolvedImages> IMAGES = List.of(new ResolvedImages("default", "amd64", List.of("ami-new")));

  private static NodeClaimView drifted(String name, int hoursAgo) {
    return withTimes(onImage(claim(name, "default"), "ami-old"), NOW - hoursAgo * HOUR, null);
  }

  /** Four drifted nodes, a the oldest. */
  private static List<NodeClaimView> abcd() {
    return List.of(drifted("a", 9), drifted("b", 7), drifted("c", 5), drifted("d", 3));
  }

  /** {@link #abcd} as a running rollout past its canary (4 to replace, batches of 2) plays it with {@code inFlight}. */
  private static RolloutSimulation.Result running(NodePoolView pool, List<String> inFlight, boolean rolling) {
    return RolloutSimulation.simulate(new DisruptionSnapshot(NOW, List.of(pool), abcd(), IMAGES), ROLLOUT, List.of("default"),
        inFlight, true, rolling, 1, 4, total -> 2);
  }

  private static NodePoolView owned(String budget) {
    return ownedBy(withBudgets(pool("default"), List.of(DisruptionBudget.of(budget))), ROLLOUT);
  }

  private static List<List<String>> names(List<List<DisruptionCommand>> batches) {
    return batches.stream().map(b -> b.stream().map(DisruptionCommand::nodeClaim).toList()).toList();
  }

  /**
   * The rollout as it runs: the canary, then a batch of {@code batchOf(total)} at a time, each planned once the one
   * before has closed, its old nodes gone from the fleet and new ones on the target in their place.
   */
  private static List<List<String>> asTheRolloutRuns(NodePoolView pool, List<NodeClaimView> fleet, int canary, IntUnaryOperator batchOf) {
    return asTheRolloutRuns(pool, fleet, List.of(), canary, 0, batchOf);
  }

  /**
   * The same, for a running rollout in batch mode whose batch {@code inFlight} is being replaced (the canary done when
   * {@code total} is set): that batch closes first, then the next ones are planned.
   */
  private static List<List<String>> asTheRolloutRuns(NodePoolView pool, List<NodeClaimView> fleet, List<String> inFlight,
      int canary, int total, IntUnaryOperator batchOf) {
    List<NodeClaimView> now = new ArrayList<>(fleet);
    List<List<String>> batches = new ArrayList<>();
    replace(now, inFlight);
    boolean canaryDone = total > 0;
    while (true) {
      int max = batches.isEmpty() && !canaryDone ? canary : batchOf.applyAsInt(total);
      RolloutBatch batch = new DisruptionPlanner().planRollout(new DisruptionSnapshot(NOW, List.of(pool), now, IMAGES),
          new RolloutScope(ROLLOUT, List.of("default"), max, List.of()));
      total = batches.isEmpty() && !canaryDone ? batch.remaining() : total;
      if (batch.commands().isEmpty()) {
        return batches;
      }
      List<String> claims = batch.commands().stream().map(DisruptionCommand::nodeClaim).toList();
      batches.add(claims);
      replace(now, claims);
    }
  }

  private static void replace(List<NodeClaimView> fleet, List<String> claims) {
    fleet.removeIf(c -> claims.contains(c.name()));
    claims.forEach(c -> fleet.add(onImage(claim(c + "-new", "default"), "ami-new")));
  }

  @Test
  void theBatchesAreTheOnesTheRolloutGetsOldestFirstUnderTheBudget() {
    NodePoolView pool = owned("2");
    List<NodeClaimView> fleet = List.of(drifted("e", 1), drifted("a", 9), drifted("c", 5), drifted("b", 7), drifted("d", 3));
    IntUnaryOperator three = total -> 3;
    var result = RolloutSimulation.simulate(new DisruptionSnapshot(NOW, List.of(pool), fleet, IMAGES), ROLLOUT,
        List.of("default"), List.of(), false, false, 1, 0, three);
    assertEquals(List.of(List.of("a"), List.of("b", "c"), List.of("d", "e")), names(result.batches()),
        "the canary, then batches of 3 cut to the budget of 2");
    assertEquals(asTheRolloutRuns(pool, fleet, 1, three), names(result.batches()));
    assertEquals(5, result.total());
    assertEquals(List.of(), result.held());
  }

  @Test
  void aPercentageBudgetCountsTheReplacedNodesAsTheRolloutWould() {
    NodePoolView pool = owned("40%");
    List<NodeClaimView> fleet = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      fleet.add(drifted("n" + i, 20 - i));
    }
    IntUnaryOperator half = total -> (total + 1) / 2;
    var result = RolloutSimulation.simulate(new DisruptionSnapshot(NOW, List.of(pool), fleet, IMAGES), ROLLOUT,
        List.of("default"), List.of(), false, false, 2, 0, half);
    assertEquals(asTheRolloutRuns(pool, fleet, 2, half), names(result.batches()));
    assertEquals(List.of(2, 4, 4), result.batches().stream().map(List::size).toList(), "40% of 10 nodes is 4 at a time");
  }

  @Test
  void aNodeHeldByDoNotDisruptIsInNoBatchAndSaysWhy() {
    NodeClaimView pinned = withFlags(drifted("pinned", 8), true, false, false, false, true);
    List<NodeClaimView> fleet = List.of(pinned, drifted("a", 5), drifted("b", 4));
    var result = RolloutSimulation.simulate(new DisruptionSnapshot(NOW, List.of(owned("100%")), fleet, IMAGES), ROLLOUT,
        List.of("default"), List.of(), false, false, 1, 0, total -> 5);
    assertEquals(List.of(List.of("a"), List.of("b")), names(result.batches()));
    assertEquals(List.of("pinned"), result.held().stream().map(CandidateDecision::nodeClaim).toList());
    assertTrue(result.held().getFirst().reason().contains("do-not-disrupt"), result.held().toString());
    assertEquals(3, result.total(), "the held node is still to be replaced");
  }

  @Test
  void everyHeldNodeIsInThePreviewWhileTheRolloutsOwnPlanKeepsTheFirstAndCountsThemAll() {
    NodeClaimView first = withFlags(drifted("pinned-1", 8), true, false, false, false, true);
    NodeClaimView second = withFlags(drifted("pinned-2", 6), true, false, false, false, true);
    var snapshot = new DisruptionSnapshot(NOW, List.of(owned("100%")), List.of(first, second, drifted("a", 5)), IMAGES);
    var scope = new RolloutScope(ROLLOUT, List.of("default"), 5, List.of());

    RolloutBatch every = new DisruptionPlanner().planRollout(snapshot, scope, true);
    RolloutBatch firstOnly = new DisruptionPlanner().planRollout(snapshot, scope, false);

    assertEquals(List.of("pinned-1", "pinned-2"), every.held().stream().map(CandidateDecision::nodeClaim).sorted().toList());
    assertEquals(1, firstOnly.held().size(), "a rollout's history keeps the first");
    assertEquals(2, firstOnly.heldCount());
    assertEquals(2, RolloutSimulation.simulate(snapshot, ROLLOUT, List.of("default"), List.of(), false, false, 1, 0, t -> 5)
        .held().size(), "the preview lists both");
  }

  @Test
  void aRunningRolloutInBatchModePlansItsNextBatchOnceTheBatchInFlightHasClosed() {
    NodePoolView pool = owned("1");
    List<NodeClaimView> fleet = abcd();
    var result = running(pool, List.of("a"), false);
    assertEquals(List.of(List.of("b"), List.of("c"), List.of("d")), names(result.batches()),
        "the canary a in flight takes the budget of 1 now, but the next batch starts once it has closed");
    assertEquals(asTheRolloutRuns(pool, fleet, List.of("a"), 1, 4, total -> 2), names(result.batches()));
    assertEquals(List.of(), result.held());
  }

  @Test
  void aRunningRolloutsNextBatchIsItsBatchSizeNotWhatTheBatchInFlightLeavesOfTheBudget() {
    NodePoolView pool = owned("2");
    List<NodeClaimView> fleet = abcd();
    var result = running(pool, List.of("a"), false);
    assertEquals(asTheRolloutRuns(pool, fleet, List.of("a"), 1, 4, total -> 2), names(result.batches()));
    assertEquals(List.of(List.of("b", "c"), List.of("d")), names(result.batches()));
  }

  @Test
  void aRollingRolloutRefillsTheSlotsItsReplacementsInFlightLeaveFree() {
    var result = running(owned("3"), List.of("a"), true);
    assertEquals(List.of(List.of("b"), List.of("c", "d")), names(result.batches()),
        "2 slots, a in one: b fills the other now, then two at a time");
  }

  @Test
  void aRollingRolloutWithEverySlotTakenWaitsForThemThenPlans() {
    var result = running(owned("2"), List.of("a", "b"), true);
    assertEquals(List.of(List.of("c", "d")), names(result.batches()), "a and b fill both slots and the budget");
    assertEquals(List.of(), result.held());
  }

  @Test
  void nothingDriftedIsNoBatch() {
    var result = RolloutSimulation.simulate(new DisruptionSnapshot(NOW, List.of(owned("100%")),
        List.of(onImage(claim("a", "default"), "ami-new")), IMAGES), ROLLOUT, List.of("default"), List.of(), false, false, 1, 0, t -> 1);
    assertEquals(List.of(), result.batches());
    assertEquals(0, result.total());
  }

  @Test
  void theEstimateTakesTheMedianForOneNodeTheP90ForABatchAndTheSoakAfterEach() {
    List<Long> history = List.of(100L, 120L, 110L, 300L, 90L, 130L, 140L, 105L, 115L, 125L);
    PreviewEstimate e = RolloutEstimate.of(history, List.of(1, 3, 2), false, true, 3, 60, false, 0, 0);
    assertEquals(10, e.samples());
    assertEquals(115L, e.p50Seconds());
    assertEquals(140L, e.p90Seconds());
    assertEquals((115 + 60) + (140 + 60) + (140 + 60), e.totalSeconds());
  }

  @Test
  void rollingSlotsTakeTheirNodesOneAfterAnother() {
    PreviewEstimate e = RolloutEstimate.of(List.of(100L), List.of(1, 2, 2, 1), true, true, 2, 10, true, 1, 0);
    assertEquals((100 + 10) + 3 * (100 + 10), e.totalSeconds(), "5 nodes in 2 slots after the canary: 3 in a row");
    assertTrue(e.basis().contains("approval") && e.basis().contains("1 held"), e.basis());
  }

  @Test
  void aRunningRollingRolloutPastItsCanaryHasOnlyWavesOfSlotsAndSaysWhatItLeavesOut() {
    PreviewEstimate e = RolloutEstimate.of(List.of(100L, 300L), List.of(2, 2), true, false, 2, 10, false, 0, 1);
    assertEquals(2 * (100 + 10), e.totalSeconds(), "two waves of two slots at p50, no canary at p90");
    assertTrue(e.basis().contains("1 replacement(s) in flight") && !e.basis().contains("canary"), e.basis());
  }

  @Test
  void withoutHistoryThereIsNoEstimate() {
    PreviewEstimate e = RolloutEstimate.of(List.of(), List.of(1, 2), false, true, 2, 60, false, 0, 0);
    assertEquals(0, e.samples());
    assertNull(e.totalSeconds());
    assertTrue(e.basis().startsWith("no history"), e.basis());
  }
}
