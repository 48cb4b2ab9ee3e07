package dev.farrier.bench;

import static dev.farrier.bench.NaivePackingTest.M_LARGE;
import static dev.farrier.bench.NaivePackingTest.M_XLARGE;
import static dev.farrier.bench.NaivePackingTest.TYPES;
import static dev.farrier.bench.NaivePackingTest.names;
import static dev.farrier.bench.NaivePackingTest.pods;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.DisruptionBudget;
import dev.farrier.planner.OfferingView;
import dev.farrier.planner.PodSpecView;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fleet update of the consolidation benchmark on hand-made fleets: deletes, replaces, and the rounds to a fixed point. */
class ConsolidationRoundsTest {
  private static final OfferingView ON_DEMAND_XLARGE = M_XLARGE.offerings().getFirst();
  private final ConsolidationRounds rounds = new ConsolidationRounds(PlannerInput.consolidatingPool(List.of(DisruptionBudget.of("100%"))),
      TYPES);

  @Test
  void aDeleteMovesItsPodsWhereTheProvisioningPlannerPutsThemAmongTheNodesLeft() {
    List<BenchPod> workload = pods(500, 500, 1800);
    List<PodSpecView> p = workload.stream().map(PlannerInput::pod).toList();
    Fleet fleet = new Fleet();
    fleet.add(new FleetNode("a", M_XLARGE, ON_DEMAND_XLARGE, List.of(p.get(0))));
    fleet.add(new FleetNode("b", M_XLARGE, ON_DEMAND_XLARGE, List.of(p.get(1))));
    fleet.add(new FleetNode("c", M_LARGE, M_LARGE.offerings().getFirst(), List.of(p.get(2))));

    rounds.apply(fleet, List.of(command("a", DisruptionMethod.DELETE, null)));

    assertEquals(List.of("b", "c"), fleet.nodes().stream().map(FleetNode::name).toList());
    assertEquals(List.of("pod-1", "pod-0"), names(fleet.node("b").pods()), "c has 130m left, b takes it");
    assertEquals(List.of("pod-2"), names(fleet.node("c").pods()));
    fleet.verify(workload);
  }

  @Test
  void aReplaceBuysTheNodeItsPlanFirstListsAtItsCheapestAllowedOfferingUnderTheCeiling() {
    List<BenchPod> workload = pods(500);
    Fleet fleet = new Fleet();
    fleet.add(new FleetNode("a", M_XLARGE, ON_DEMAND_XLARGE, List.of(PlannerInput.pod(workload.getFirst()))));

    rounds.apply(fleet, List.of(command("a", DisruptionMethod.REPLACE, 0.192)));

    FleetNode node = fleet.nodes().iterator().next();
    assertEquals(1, fleet.size());
    assertEquals("repl-00001", node.name());
    assertEquals("m5.large", node.type().name());
    assertEquals(new OfferingView("us-east-1b", WellKnown.CAPACITY_SPOT, 0.025, true), node.offering());
    assertEquals(List.of("pod-0"), names(node.pods()));
  }

  @Test
  void roundsRunToAFixedPointAndLoseNoPod() {
    List<BenchPod> workload = pods(500, 500, 500);
    Fleet spread = new Fleet();
    int i = 0;
    for (BenchPod pod : workload) {
      spread.add(new FleetNode("n" + i++, M_XLARGE, ON_DEMAND_XLARGE, List.of(PlannerInput.pod(pod))));
    }

    // Round 1 deletes two nodes at once (multi-node: their pods fit on the third); round 2 replaces the third, on-demand
    // m5.xlarge, by the cheapest node that holds its three pods: an m5.large spot; a spot node is never replaced, so
    // round 3 issues nothing.
    ConsolidationRounds.Outcome outcome = rounds.run(spread, 10);

    assertEquals(new ConsolidationRounds.Outcome(2, 2, 1, false, outcome.plannerMillis()), outcome);
    assertEquals(1, spread.size());
    FleetNode node = spread.nodes().iterator().next();
    assertEquals("m5.large spot", node.type().name() + " " + node.offering().capacityType());
    assertEquals(0.025, spread.pricePerHour(), 1e-9);
    spread.verify(workload);
  }

  @Test
  void theCapStopsRoundsThatKeepIssuingCommands() {
    Fleet fleet = new Fleet();
    List<BenchPod> workload = pods(500, 500);
    fleet.add(new FleetNode("a", M_XLARGE, ON_DEMAND_XLARGE, List.of(PlannerInput.pod(workload.get(0)))));
    fleet.add(new FleetNode("b", M_XLARGE, ON_DEMAND_XLARGE, List.of(PlannerInput.pod(workload.get(1)))));
    ConsolidationRounds.Outcome outcome = rounds.run(fleet, 1);
    assertEquals(1, outcome.rounds());
    assertTrue(outcome.capHit());
    fleet.verify(workload);
  }

  @Test
  void aLostOrDuplicatedPodFailsTheCheck() {
    List<BenchPod> workload = pods(500, 500);
    PodSpecView first = PlannerInput.pod(workload.get(0));
    Fleet lost = new Fleet();
    lost.add(new FleetNode("a", M_XLARGE, ON_DEMAND_XLARGE, List.of(first)));
    assertThrows(IllegalStateException.class, () -> lost.verify(workload));
    Fleet twice = new Fleet();
    twice.add(new FleetNode("a", M_XLARGE, ON_DEMAND_XLARGE, List.of(first, PlannerInput.pod(workload.get(1)))));
    twice.add(new FleetNode("b", M_XLARGE, ON_DEMAND_XLARGE, List.of(first)));
    assertThrows(IllegalStateException.class, () -> twice.verify(workload));
  }

  @Test
  void aCommandOtherThanConsolidationFailsTheRun() {
    Fleet fleet = new Fleet();
    fleet.add(new FleetNode("a", M_XLARGE, ON_DEMAND_XLARGE, List.of()));
    DisruptionCommand drift = new DisruptionCommand("a", "a", PlannerInput.NODE_POOL, "i-a", DisruptionMethod.DELETE, "drifted", "",
        0, null);
    assertThrows(IllegalStateException.class, () -> rounds.apply(fleet, List.of(drift)));
    assertFalse(fleet.nodes().isEmpty());
  }

  private static DisruptionCommand command(String node, DisruptionMethod method, Double maxPrice) {
    return new DisruptionCommand(node, node, PlannerInput.NODE_POOL, "i-" + node, method, DisruptionCommand.REASON_UNDERUTILIZED, "",
        1, null, null, null, false, false, maxPrice);
  }
}
