package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static dev.farrier.planner.UnderutilizationTest.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.UnderutilizationTest.Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

/**
 * {@code consolidationPolicy: Balanced}: a move goes ahead only when (savings / NodePool price) / (disruption cost /
 * NodePool disruption cost) reaches 1/k = 0.5. Each case is computed by hand in its comment, with moves just above and
 * just below the threshold; the same fleets under {@code WhenEmptyOrUnderutilized} consolidate regardless.
 * Prices: m5.large $0.096/h, m5.xlarge $0.192/h, m5.2xlarge $0.384/h.
 */
class BalancedConsolidationTest {
  /** On-demand only, so a replacement's price is the on-demand one computed below (the fixtures' spot is 40% of it). */
  private static NodePoolView onDemand() {
    return Fixtures.pool("default", 0, List.of(req(WellKnown.CAPACITY_TYPE_LABEL, "In", WellKnown.CAPACITY_ON_DEMAND)), List.of());
  }

  private static NodePoolView balanced() {
    return onDemand().withConsolidation("Balanced", "0s");
  }

  private static NodePoolView underutilized() {
    return onDemand().withConsolidation("WhenEmptyOrUnderutilized", "0s");
  }

  private static DisruptionSnapshot snapshot(NodePoolView pool, Map<String, Double> moveCost, Map<String, String> pdb, Node... nodes) {
    var s = UnderutilizationTest.snapshot(pool, Map.of(), pdb, nodes);
    return new DisruptionSnapshot(s.nowMillis(), s.nodePools(), s.nodeClaims(), s.resolvedImages(), s.frozen(),
        s.consolidation().withMoveCost(moveCost));
  }

  private static DisruptionPlanner.Round round(NodePoolView pool, Map<String, Double> moveCost, Map<String, String> pdb, Node... nodes) {
    return new DisruptionPlanner().round(snapshot(pool, moveCost, pdb, nodes));
  }

  private static List<String> commanded(DisruptionPlan plan) {
    return plan.commands().stream().map(DisruptionCommand::nodeClaim).toList();
  }

  /** a (m5.large) whose pod fits on b (m5.2xlarge, whose pod fits nowhere cheaper). */
  private static Node[] smallBesideBig() {
    return new Node[] {node("a", "m5.large", 500), node("b", "m5.2xlarge", 5000)};
  }

  @Test
  void aSingleDeleteJustAboveTheThresholdGoesAheadAndJustBelowIsKeptSayingItsScore() {
    // Pool price 0.096 + 0.384 = 0.48: deleting a saves 0.096 / 0.48 = 20%. Pool disruption 10.
    // a costs 3.9: 39% of the disruption, score 0.20 / 0.39 = 0.513 >= 0.5.
    var above = round(balanced(), Map.of("node-a", 3.9, "node-b", 6.1), Map.of(), smallBesideBig()).plan();
    assertEquals(List.of("a"), commanded(above), above.toString());
    assertEquals(DisruptionMethod.DELETE, above.commands().getFirst().method());
    assertEquals("its 1 pod fits on the other nodes; Balanced: score 0.51 reaches threshold 0.50 (saves 20.0% of the"
        + " NodePool's price for 39.0% of its disruption cost)", above.commands().getFirst().detail());

    // a costs 4.1: 41%, score 0.20 / 0.41 = 0.488 < 0.5; b's pod needs a node as dear as b: nothing goes.
    var below = round(balanced(), Map.of("node-a", 4.1, "node-b", 5.9), Map.of(), smallBesideBig()).plan();
    assertEquals(List.of(), commanded(below), below.toString());
    assertTrue(decision(below, "a").endsWith("underutilized but Balanced: score 0.49 below threshold 0.50 (saves 20.0% of the"
        + " NodePool's price for 41.0% of its disruption cost), even deleted outright"), decision(below, "a"));

    // WhenEmptyOrUnderutilized does not score: a goes whatever its pods cost.
    var unscored = round(underutilized(), Map.of("node-a", 4.1, "node-b", 5.9), Map.of(), smallBesideBig()).plan();
    assertEquals(List.of("a"), commanded(unscored));
    assertEquals("its 1 pod fits on the other nodes", unscored.commands().getFirst().detail());
  }

  @Test
  void aSingleReplaceIsScoredOnItsSavingsAfterTheReplacementsPrice() {
    // c (m5.2xlarge, 1.5 vCPU of pods) is replaced by an m5.large: saves 0.384 - 0.096 = 0.288 of the pool's 0.768 =
    // 37.5%; d, held by a PDB, is no candidate but counts in the totals (disruption 10 in all).
    Node c = node("c", "m5.2xlarge", 1500);
    Node d = node("d", "m5.2xlarge", 7000);
    Map<String, String> pdb = Map.of("node-d", "PodDisruptionBudget default/db allows no eviction of pod default/d-p0 now");
    // c costs 7.4: 74%, score 0.375 / 0.74 = 0.507 >= 0.5.
    var above = round(balanced(), Map.of("node-c", 7.4, "node-d", 2.6), pdb, c, d).plan();
    assertEquals(List.of("c"), commanded(above), above.toString());
    assertEquals(DisruptionMethod.REPLACE, above.commands().getFirst().method());
    assertTrue(above.commands().getFirst().detail().endsWith("; Balanced: score 0.51 reaches threshold 0.50 (saves 37.5% of the"
        + " NodePool's price for 74.0% of its disruption cost)"), above.commands().getFirst().detail());

    // c costs 7.6: 76%, score 0.375 / 0.76 = 0.493 < 0.5 (deleted outright it would score 0.5 / 0.76 = 0.66: simulated).
    var below = round(balanced(), Map.of("node-c", 7.6, "node-d", 2.4), pdb, c, d);
    assertEquals(List.of(), commanded(below.plan()), below.plan().toString());
    assertTrue(decision(below.plan(), "c").endsWith("underutilized but Balanced: score 0.49 below threshold 0.50 (saves 37.5% of"
        + " the NodePool's price for 76.0% of its disruption cost)"), decision(below.plan(), "c"));
    // The replace was found and turned down: one move counted, rejected, with its score.
    assertEquals(1, below.moves().size(), below.moves().toString());
    assertFalse(below.moves().getFirst().approved());
    assertEquals(0.375 / 0.76, below.moves().getFirst().score().score(), 1e-9);

    assertEquals(List.of("c"), commanded(round(underutilized(), Map.of("node-c", 7.6, "node-d", 2.4), pdb, c, d).plan()));
  }

  @Test
  void aMultiNodeDeleteIsScoredAsOneMoveAndItsRejectionLeavesTheSinglesToTheirOwnScores() {
    // e and f (m5.xlarge) move onto g and h (m5.2xlarge, held by PDBs): pool price 1.152, the pair saves 0.384 = 1/3.
    Node e = node("e", "m5.xlarge", 500);
    Node f = node("f", "m5.xlarge", 500);
    Node g = node("g", "m5.2xlarge", 1000);
    Node h = node("h", "m5.2xlarge", 1000);
    Map<String, String> pdb = Map.of("node-g", "PodDisruptionBudget default/g allows no eviction", "node-h",
        "PodDisruptionBudget default/h allows no eviction");
    var pool = withBudgets(onDemand(), List.of(DisruptionBudget.of("10"))).withConsolidation("Balanced", "0s");
    // e, f cost 1.9 each, g, h 1: the pair is 3.8 / 5.8 = 65.5% of the disruption, score 0.333 / 0.655 = 0.509.
    var above = round(pool, Map.of("node-e", 1.9, "node-f", 1.9, "node-g", 1.0, "node-h", 1.0), pdb, e, f, g, h);
    assertEquals(List.of("e", "f"), commanded(above.plan()), above.plan().toString());
    assertTrue(above.plan().commands().getFirst().detail().contains("Balanced: score 0.51 reaches threshold 0.50 (saves 33.3%"),
        above.plan().commands().getFirst().detail());
    assertEquals(1, above.moves().size(), above.moves().toString());
    assertTrue(above.moves().getFirst().approved());
    assertEquals(1.0 / 3, above.moves().getFirst().score().savingsFraction(), 1e-9);
    assertEquals(3.8 / 5.8, above.moves().getFirst().score().disruptionFraction(), 1e-9);

    // e, f cost 2.1 each: 4.2 / 6.2 = 67.7%, score 0.492; alone, e saves 1/6 for 2.1 / 6.2: 0.492 too. Nothing goes.
    var below = round(pool, Map.of("node-e", 2.1, "node-f", 2.1, "node-g", 1.0, "node-h", 1.0), pdb, e, f, g, h);
    assertEquals(List.of(), commanded(below.plan()), below.plan().toString());
    assertTrue(decision(below.plan(), "e").endsWith("underutilized but Balanced: score 0.49 below threshold 0.50 (saves 16.7% of"
        + " the NodePool's price for 33.9% of its disruption cost), even deleted outright"), decision(below.plan(), "e"));
    // The multi-node move is counted once, rejected; the singles were not worth simulating and are not counted.
    assertEquals(1, below.moves().size(), below.moves().toString());
    assertEquals((1.0 / 3) / (4.2 / 6.2), below.moves().getFirst().score().score(), 1e-9);
    assertFalse(below.moves().getFirst().approved());

    var unscored = withBudgets(onDemand(), List.of(DisruptionBudget.of("10")))
        .withConsolidation("WhenEmptyOrUnderutilized", "0s");
    var weou = round(unscored, Map.of("node-e", 2.1, "node-f", 2.1, "node-g", 1.0, "node-h", 1.0), pdb, e, f, g, h);
    assertEquals(List.of("e", "f"), commanded(weou.plan()));
    assertEquals(List.of(new ConsolidationMove("default", "WhenEmptyOrUnderutilized", true, null)), weou.moves());
  }

  @Test
  void withoutReadCostsEachPodCountsOneAndTheNodeOne() {
    // a: 1 + 1 pod = 2 of 2 + 4 (b has 3 pods): 33%; saves 0.096 / 0.48 = 20%: score 0.6.
    var plan = new DisruptionPlanner().plan(UnderutilizationTest.snapshot(balanced(), Map.of(), Map.of(),
        node("a", "m5.large", 500), node("b", "m5.2xlarge", 3000, 1000, 1000)));
    assertEquals(List.of("a"), commanded(plan), plan.toString());
    assertTrue(plan.commands().getFirst().detail().endsWith("score 0.60 reaches threshold 0.50 (saves 20.0% of the NodePool's"
        + " price for 33.3% of its disruption cost)"), plan.commands().getFirst().detail());
  }

  @Test
  void anEmptyNodeOfABalancedPoolIsDeletedAsEmptyUnscored() {
    var plan = new DisruptionPlanner().plan(UnderutilizationTest.snapshot(balanced(), Map.of(), Map.of(),
        node("a", "m5.large"), node("b", "m5.2xlarge", 5000)));
    assertEquals(List.of("a"), commanded(plan), plan.toString());
    assertEquals("empty", plan.commands().getFirst().reason());
  }

  @Test
  void theScoreIsZeroWithoutSavingsInfiniteWithoutDisruptionAndZeroAgainstUnknownTotals() {
    assertEquals(0.0, BalancedScore.of(0, 1, 1, 1).score());
    assertEquals(0.0, BalancedScore.of(-0.1, 1, 1, 1).score());
    assertEquals(Double.POSITIVE_INFINITY, BalancedScore.of(0.1, 0, 1, 1).score());
    assertFalse(BalancedScore.of(0.1, 1, 0, 1).approved());
    assertTrue(BalancedScore.of(0.5, 1, 1, 1).approved(), "0.5 / 1 reaches 1/k exactly");
    assertEquals(0.5, BalancedScore.THRESHOLD);
  }

  /**
   * On random fleets: Balanced never consolidates where WhenEmptyOrUnderutilized finds nothing, every Balanced command says
   * its passing score, every counted Balanced move has a score on the right side of the threshold, and the decisions do
   * not change when every disruption cost is scaled (both fractions are shares of the NodePool's totals).
   */
  @RepeatedTest(100)
  void balancedOnlyEverDropsMovesAndIsScaleInvariant(RepetitionInfo repetition) {
    Random random = new Random(repetition.getCurrentRepetition());
    List<Node> fleet = new ArrayList<>();
    Map<String, Double> moveCost = new HashMap<>();
    int count = 2 + random.nextInt(5);
    for (int i = 0; i < count; i++) {
      long[] pods = new long[1 + random.nextInt(3)];
      for (int p = 0; p < pods.length; p++) {
        pods[p] = 100 + random.nextInt(1500);
      }
      fleet.add(node("n" + i, TYPES.get(random.nextInt(TYPES.size())).name(), WellKnown.CAPACITY_ON_DEMAND, pods));
      moveCost.put("node-n" + i, 1 + random.nextDouble() * pods.length * 3);
    }
    String budget = String.valueOf(1 + random.nextInt(3));
    Node[] nodes = fleet.toArray(Node[]::new);
    var pool = withBudgets(Fixtures.pool("default"), List.of(DisruptionBudget.of(budget)));
    var weou = round(pool.withConsolidation("WhenEmptyOrUnderutilized", "0s"), moveCost, Map.of(), nodes);
    var bal = round(pool.withConsolidation("Balanced", "0s"), moveCost, Map.of(), nodes);
    if (weou.plan().commands().isEmpty()) {
      assertEquals(List.of(), commanded(bal.plan()));
    }
    for (DisruptionCommand c : bal.plan().commands()) {
      assertTrue(c.detail().contains("reaches threshold 0.50"), c.detail());
    }
    for (ConsolidationMove m : bal.moves()) {
      assertEquals(m.approved(), m.score().score() >= BalancedScore.THRESHOLD, m.toString());
    }
    assertNull(weou.moves().stream().map(ConsolidationMove::score).filter(s -> s != null).findFirst().orElse(null));
    Map<String, Double> scaled = moveCost.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue() * 7.5));
    var scaledPlan = round(pool.withConsolidation("Balanced", "0s"), scaled, Map.of(), nodes).plan();
    assertEquals(commanded(bal.plan()), commanded(scaledPlan));
  }
}
