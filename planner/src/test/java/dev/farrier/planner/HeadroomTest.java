package dev.farrier.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.Resources;
import org.junit.jupiter.api.Test;

/** How many placeholder pods a NodePool's headroom runs: a count, a share of its CPU, and what its limits leave. */
class HeadroomTest {
  private static final long GI = 1L << 30;
  private static final Headroom FOUR_OF_ONE_CPU = Headroom.ofPods(4, 1000, 2 * GI);

  @Test
  void aCountIsThatManyPlaceholdersWhateverThePoolsSize() {
    assertEquals(4, FOUR_OF_ONE_CPU.wanted(0, 0));
    assertEquals(4, FOUR_OF_ONE_CPU.wanted(96_000, 0));
  }

  @Test
  void aPercentIsThatShareOfThePoolsAllocatableCpuInPlaceholdersOfOneCpuRoundedUp() {
    var tenPercent = Headroom.ofCpuPercent(10);
    assertEquals(0, tenPercent.wanted(0, 0), "a pool with no nodes has no CPU to take a share of");
    assertEquals(1, tenPercent.wanted(3_920, 0), "392m rounds up to one placeholder");
    assertEquals(2, tenPercent.wanted(15_840, 0), "1584m: two");
    assertEquals(10, tenPercent.wanted(100_000, 0), "10 CPU exactly: ten");
    assertEquals(1000, tenPercent.podMilliCpu());
    assertEquals(0, tenPercent.podMemoryBytes());
  }

  @Test
  void withoutLimitsEveryWantedPlaceholderRuns() {
    var replicas = FOUR_OF_ONE_CPU.replicas(8_000, NodePoolLimits.NONE, Resources.of(8_000, 32 * GI, 110), 0, 0);
    assertEquals(new Headroom.Replicas(4, 4, ""), replicas);
    assertFalse(replicas.capped());
  }

  @Test
  void theCpuLimitCapsThePlaceholdersToThoseRunningPlusWhatItsRoomHolds() {
    // limits.cpu 10, 8 in use: room for 2 more of 1 CPU beside the one already running.
    var replicas = FOUR_OF_ONE_CPU.replicas(8_000, NodePoolLimits.cpuAndMemory(10_000L, null), Resources.of(8_000, 32 * GI, 110), 1, 0);
    assertEquals(4, replicas.wanted());
    assertEquals(3, replicas.replicas());
    assertTrue(replicas.capped());
    assertEquals("limits.cpu 10 (8 in use)", replicas.cappedBy());
  }

  @Test
  void theTighterOfTheCpuAndMemoryLimitsDecidesAndBothAreNamed() {
    // cpu leaves room for 3, memory (5Gi of 2Gi placeholders) for 2.
    var replicas = FOUR_OF_ONE_CPU.replicas(0, NodePoolLimits.cpuAndMemory(3_000L, 5 * GI), Resources.ZERO, 0, 0);
    assertEquals(2, replicas.replicas());
    assertEquals("limits.cpu 3 (0 in use) and limits.memory 5Gi (0 in use)", replicas.cappedBy());
  }

  @Test
  void aPoolAlreadyPastItsLimitsKeepsOnlyThePlaceholdersItRuns() {
    var replicas = FOUR_OF_ONE_CPU.replicas(0, NodePoolLimits.cpuAndMemory(4_000L, null), Resources.of(6_000, 0, 0), 2, 0);
    assertEquals(2, replicas.replicas());
    var none = FOUR_OF_ONE_CPU.replicas(0, NodePoolLimits.cpuAndMemory(0L, null), Resources.ZERO, 0, 0);
    assertEquals(0, none.replicas());
  }

  @Test
  void aLimitOnAResourceThePlaceholderDoesNotRequestDoesNotCapIt() {
    var cpuOnly = Headroom.ofCpuPercent(50);
    var replicas = cpuOnly.replicas(4_000, NodePoolLimits.cpuAndMemory(null, 0L), Resources.of(4_000, 16 * GI, 0), 0, 0);
    assertEquals(new Headroom.Replicas(2, 2, ""), replicas);
  }

  @Test
  void aNodeLaunchedForPendingPlaceholdersDoesNotTakeThemBack() {
    // limits.cpu 10, 8 in use, 1 placeholder running: 3 granted. A node of 2 CPU is launched for the 2 pending ones;
    // from its launch it is in the usage (10), before they are bound to it.
    var first = FOUR_OF_ONE_CPU.replicas(8_000, NodePoolLimits.cpuAndMemory(10_000L, null), Resources.of(8_000, 32 * GI, 110), 1, 0);
    assertEquals(3, first.replicas());
    var inFlight = FOUR_OF_ONE_CPU.replicas(8_000, NodePoolLimits.cpuAndMemory(10_000L, null), Resources.of(10_000, 36 * GI, 220), 1,
        first.replicas());
    assertEquals(3, inFlight.replicas(), "the placeholders the new node is for are kept, so it does not come up empty");
    assertEquals("limits.cpu 10 (10 in use)", inFlight.cappedBy());
  }

  @Test
  void aPercentOfThePoolLeavesThePlaceholdersOwnRequestsOutAndSettles() {
    var half = Headroom.ofCpuPercent(Headroom.MAX_CPU_PERCENT);
    assertEquals(5, half.wanted(14_000, 4), "50% of the 10 CPU not held by the 4 placeholders");
    // 10 CPU of real pods; each placeholder of 1 CPU takes a node of 1.9 CPU allocatable of its own.
    int placeholders = 0;
    for (int pass = 0; pass < 50; pass++) {
      placeholders = half.wanted(10_000 + 1_900L * placeholders, placeholders);
    }
    assertEquals(placeholders, half.wanted(10_000 + 1_900L * placeholders, placeholders), "it settles");
    assertTrue(placeholders <= 11, "at about half the real pods' 10 CPU, not growing without bound: " + placeholders);
    assertEquals(Headroom.MAX_PODS, half.wanted(100_000_000, 0), "never more than MAX_PODS");
  }

  @Test
  void aLimitReachedIsNamedWhateverThePlaceholderRequests() {
    assertEquals("limits.cpu 2 (2 in use)", Headroom.reachedLimit(NodePoolLimits.cpuAndMemory(2_000L, null), Resources.of(2_000, GI, 0)));
    assertEquals(null, Headroom.reachedLimit(NodePoolLimits.cpuAndMemory(2_000L, null), Resources.of(1_500, GI, 0)));
    assertEquals(null, Headroom.reachedLimit(NodePoolLimits.NONE, Resources.of(100_000, GI, 0)));
    assertEquals("limits.memory 1Gi (1Gi in use)", Headroom.reachedLimit(NodePoolLimits.cpuAndMemory(null, GI), Resources.of(100, GI, 0)));
  }

  @Test
  void aPlaceholdersSizeInWords() {
    assertEquals("cpu 1, memory 2Gi each", FOUR_OF_ONE_CPU.podSize());
    assertEquals("cpu 500m each", Headroom.ofPods(1, 500, 0).podSize());
  }

  @Test
  void aHeadroomIsACountOrAPercentNeverBoth() {
    assertThrows(IllegalArgumentException.class, () -> new Headroom(4, 10, 1000, 0));
    assertThrows(IllegalArgumentException.class, () -> new Headroom(null, null, 1000, 0));
  }
}
