package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.NOW;
import static dev.farrier.planner.Fixtures.claim;
import static dev.farrier.planner.Fixtures.pool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Node repair as Karpenter v1's health controller decides it with the AWS provider's repair policies. */
class RepairTest {
  private static final long MINUTE = 60_000L;

  private static NodeClaimView withCondition(String name, String type, String status, long sinceMinutesAgo) {
    return claim(name, "default").withNodeConditions(List.of(
        new NodeConditionView(type, status, NOW - sinceMinutesAgo * MINUTE)));
  }

  private static Repair repair(boolean enabled, List<NodeClaimView> claims) {
    return Repair.of(new DisruptionSnapshot(NOW, List.of(pool("default")), claims, List.of(), null, enabled));
  }

  @ParameterizedTest(name = "{0}={1} for {2}m: repaired {3}")
  @CsvSource({
      "Ready, False, 30, true",
      "Ready, False, 29, false",
      "Ready, Unknown, 30, true",
      "Ready, Unknown, 29, false",
      "Ready, True, 600, false",
      "AcceleratedHardwareReady, False, 10, true",
      "AcceleratedHardwareReady, False, 9, false",
      "AcceleratedHardwareReady, Unknown, 600, false",
      "StorageReady, False, 30, true",
      "StorageReady, False, 29, false",
      "NetworkingReady, False, 30, true",
      "NetworkingReady, False, 29, false",
      "KernelReady, False, 30, true",
      "KernelReady, False, 29, false",
      "ContainerRuntimeReady, False, 30, true",
      "ContainerRuntimeReady, False, 29, false",
      "ContainerRuntimeReady, Unknown, 600, false",
      "MemoryPressure, True, 600, false",
      "DiskPressure, True, 600, false",
  })
  void eachConditionIsToleratedForItsOwnDuration(String type, String status, long minutes, boolean repaired) {
    NodeClaimView sick = withCondition("sick", type, status, minutes);
    List<NodeClaimView> claims = new ArrayList<>(List.of(sick));
    // Healthy company, so the 20% rule never holds the one under test.
    IntStream.range(0, 9).forEach(i -> claims.add(claim("ok-" + i, "default")));

    String detail = repair(true, claims).repairs(sick);

    assertEquals(repaired, detail != null, String.valueOf(detail));
  }

  @Test
  void theDetailNamesTheConditionItsSinceAndItsToleration() {
    NodeClaimView sick = withCondition("sick", "Ready", "Unknown", 31);
    assertEquals("node condition Ready is Unknown since 2027-01-15T07:29:00Z, past its toleration of 30m",
        repair(true, List.of(sick)).repairs(sick));
  }

  @Test
  void theConditionClosestToItsEndDecides() {
    // Ready False for 20m (30m toleration: 10m to go), AcceleratedHardwareReady False for 11m (10m: already past).
    NodeClaimView sick = claim("sick", "default").withNodeConditions(List.of(
        new NodeConditionView("Ready", "False", NOW - 20 * MINUTE),
        new NodeConditionView("AcceleratedHardwareReady", "False", NOW - 11 * MINUTE)));
    assertEquals("node condition AcceleratedHardwareReady is False since 2027-01-15T07:49:00Z, past its toleration of 10m",
        repair(true, List.of(sick)).repairs(sick));
  }

  @Test
  void offByDefaultAsKarpentersNodeRepairGate() {
    NodeClaimView sick = withCondition("sick", "Ready", "False", 600);
    var snapshot = new DisruptionSnapshot(NOW, List.of(pool("default")), List.of(sick), List.of(), null);

    assertNull(Repair.of(snapshot).repairs(sick));
    assertEquals(List.of(), Repair.of(snapshot).blocked());
    assertNull(repair(false, List.of(sick)).repairs(sick));
  }

  @Test
  void aConditionWithoutATransitionTimeIsNeverPastItsToleration() {
    NodeClaimView sick = claim("sick", "default").withNodeConditions(List.of(new NodeConditionView("Ready", "False", null)));
    assertNull(repair(true, List.of(sick)).repairs(sick));
  }

  /**
   * Karpenter: up to 20% of a NodePool's nodes may be unhealthy, rounded up (as a PDB's percentage), counting every node
   * with an unhealthy condition whether or not its toleration has passed; one more and none is repaired.
   */
  @ParameterizedTest(name = "{1} unhealthy of {0} nodes: repaired {2}")
  @CsvSource({
      "1, 1, true",
      "2, 1, true",
      "2, 2, false",
      "3, 1, true",
      "5, 1, true",
      "5, 2, false",
      "10, 2, true",
      "10, 3, false",
      "11, 3, true",
      "11, 4, false",
  })
  void moreThanTwentyPercentUnhealthyHoldsEveryRepairOfTheNodePool(int nodes, int unhealthy, boolean repaired) {
    List<NodeClaimView> claims = new ArrayList<>();
    NodeClaimView due = withCondition("due", "Ready", "False", 31);
    claims.add(due);
    // The others are unhealthy too recently to be repaired, but they count.
    IntStream.range(1, unhealthy).forEach(i -> claims.add(withCondition("recent-" + i, "Ready", "Unknown", 1)));
    IntStream.range(unhealthy, nodes).forEach(i -> claims.add(claim("ok-" + i, "default")));

    Repair repair = repair(true, claims);

    assertEquals(repaired, repair.repairs(due) != null);
    int allowed = (int) Math.ceil(nodes * 0.2);
    assertEquals(repaired ? List.of() : List.of(new Repair.Blocked("default", unhealthy, nodes, allowed)), repair.blocked());
  }

  @Test
  void theShareIsPerNodePoolAndOnlyNodesCount() {
    List<NodeClaimView> claims = new ArrayList<>();
    claims.add(withCondition("a-sick", "Ready", "False", 31));
    claims.add(claim("a-ok", "default"));
    // Another NodePool's unhealthy nodes do not hold this one's repairs.
    IntStream.range(0, 5).forEach(i -> claims.add(claim("b-" + i, "other").withNodeConditions(List.of(
        new NodeConditionView("Ready", "False", NOW - 31 * MINUTE)))));
    // A claim still launching (no Node yet) is no node.
    claims.add(Fixtures.withFlags(new NodeClaimView("a-launching", "default", "default", null, null, null, "amd64", "hash-default",
        null, null, null, false, false, false, false, false, false, NOW, null, null, null, PodsOnNode.NONE), false, false, false, false, false));

    Repair repair = Repair.of(new DisruptionSnapshot(NOW, List.of(pool("default"), pool("other")), claims, List.of(), null, true));

    assertEquals("node condition Ready is False since 2027-01-15T07:29:00Z, past its toleration of 30m",
        repair.repairs(claims.getFirst()));
    assertEquals(List.of(new Repair.Blocked("other", 5, 5, 1)), repair.blocked());
    assertEquals("more than 20% of nodepool other's nodes are unhealthy (5 of 5; at most 1 may be): node repair is"
        + " held for its nodes until fewer are", repair.blocked().getFirst().message());
  }

  @Test
  void aNodePoolOverTheShareIsReportedOnlyWhenOneOfItsNodesIsDue() {
    // Karpenter publishes NodeRepairBlocked when it would repair a node and may not; nodes still tolerated block nothing.
    List<NodeClaimView> claims = List.of(withCondition("a", "Ready", "False", 5), withCondition("b", "Ready", "False", 5));
    assertEquals(List.of(), repair(true, claims).blocked());
  }
}
