package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.HOUR;
import static dev.farrier.planner.Fixtures.NOW;
import static dev.farrier.planner.Fixtures.claim;
import static dev.farrier.planner.Fixtures.pool;
import static dev.farrier.planner.Fixtures.withBudgets;
import static dev.farrier.planner.Fixtures.withFlags;
import static dev.farrier.planner.Fixtures.withPods;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.model.DisruptionPlan;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The disruption planner turns a node past its repair toleration into a forceful command (Karpenter's node repair). */
class DisruptionPlannerRepairTest {
  private static final List<ResolvedImages> IMAGES = List.of(new ResolvedImages("default", "amd64", List.of("ami-new")));
  private static final List<NodeConditionView> NOT_READY_FOR_31M =
      List.of(new NodeConditionView("Ready", "Unknown", NOW - 31 * 60_000L));

  private static DisruptionPlan plan(NodePoolView pool, List<NodeClaimView> claims, boolean nodeRepair, Map<String, String> frozen) {
    return new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(pool), claims, IMAGES, frozen, nodeRepair));
  }

  @Test
  void anUnhealthyNodeIsReplacedForcefullyPastBudgetsDoNotDisruptAndFreezes() {
    NodePoolView noBudget = withBudgets(pool("default"), List.of(DisruptionBudget.of("0")));
    NodeClaimView sick = withFlags(claim("sick", "default"), true, false, false, false, true).withNodeConditions(NOT_READY_FOR_31M);

    DisruptionPlan plan = plan(noBudget, List.of(sick, claim("well", "default")), true, Map.of("*", "frozen by ops"));

    DisruptionCommand command = plan.commands().getFirst();
    assertEquals(List.of("sick"), plan.commands().stream().map(DisruptionCommand::nodeClaim).toList());
    assertEquals("unhealthy", command.reason());
    assertEquals(DisruptionMethod.REPLACE, command.method(), "its pods need a node");
    assertTrue(command.forceful(), "drained at once, the replacement launched in parallel");
    assertEquals(0L, command.terminationGracePeriodSeconds(),
        "Karpenter's repair sets the termination time to now: PDBs and do-not-disrupt pods no longer hold");
    assertTrue(command.detail().startsWith("node condition Ready is Unknown since 2027-01-15T07:29:00Z, past its toleration"
        + " of 30m; forceful"), command.detail());
    assertEquals(new CandidateDecision("sick", "node-sick", "default", true, "unhealthy: " + command.detail()),
        plan.decisions().stream().filter(d -> d.nodeClaim().equals("sick")).findFirst().orElseThrow());
  }

  @Test
  void anUnhealthyNodeWithoutPodsIsDeleted() {
    NodeClaimView sick = withPods(claim("sick", "default"), PodsOnNode.NONE).withNodeConditions(NOT_READY_FOR_31M);
    assertEquals(DisruptionMethod.DELETE, plan(pool("default"), List.of(sick), true, Map.of()).commands().getFirst().method());
  }

  @Test
  void offTheNodeIsLeftToTheOtherReasons() {
    NodeClaimView sick = claim("sick", "default").withNodeConditions(NOT_READY_FOR_31M);
    DisruptionPlan plan = plan(pool("default"), List.of(sick), false, Map.of());
    assertEquals(List.of(), plan.commands());
  }

  @Test
  void aNodeAlreadyBeingReplacedOrNotInitializedIsNotRepaired() {
    NodeClaimView replaced = withFlags(claim("replaced", "default"), true, false, true, false, false).withNodeConditions(NOT_READY_FOR_31M);
    NodeClaimView launching = withFlags(claim("launching", "default"), false, false, false, false, false)
        .withNodeConditions(NOT_READY_FOR_31M);
    List<NodeClaimView> claims = List.of(replaced, launching, claim("a", "default"), claim("b", "default"), claim("c", "default"),
        claim("d", "default"), claim("e", "default"), claim("f", "default"), claim("g", "default"), claim("h", "default"));

    DisruptionPlan plan = plan(pool("default"), claims, true, Map.of());

    assertEquals(List.of(), plan.commands(), "a replacement runs for the one; the launch's own timeout owns the other");
  }

  @Test
  void aNodePoolOverTheUnhealthyShareRepairsNothingAndItsNodesAreDecidedAsUsual() {
    NodeClaimView first = claim("first", "default").withNodeConditions(NOT_READY_FOR_31M);
    NodeClaimView second = Fixtures.withTimes(claim("second", "default"), NOW - 48 * HOUR, null).withNodeConditions(NOT_READY_FOR_31M);
    NodePoolView expiring = Fixtures.withExpireAfter(pool("default"), "24h");

    DisruptionPlan plan = plan(expiring, List.of(first, second), true, Map.of());

    assertEquals(List.of("expired"), plan.commands().stream().map(DisruptionCommand::reason).toList(),
        "the older node still expires; neither is repaired");
    assertFalse(plan.decisions().stream().filter(d -> d.nodeClaim().equals("first")).findFirst().orElseThrow().disrupt());
  }
}
