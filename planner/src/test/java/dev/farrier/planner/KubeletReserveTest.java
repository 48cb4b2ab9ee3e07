package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.GIB;
import static dev.farrier.planner.Fixtures.MIB;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.model.Resources;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KubeletReserveTest {

  @ParameterizedTest(name = "{0}m reserves {1}m")
  @CsvSource({
      "1000, 60",      // 6% of the first core
      "2000, 70",      // + 1% of the second
      "4000, 80",      // + 0.5% of the third and fourth
      "8000, 90",      // + 0.25% of each further core
      "96000, 310",
      "500, 30",
      "2500, 73"})     // 70 + 2.5, rounded up
  void cpuFollowsTheEksSteps(long milliCpu, long reserved) {
    assertEquals(reserved, KubeletReserve.cpuReserve(milliCpu));
  }

  @ParameterizedTest(name = "{0} GiB with {1} pods keeps {2} MiB")
  @CsvSource({
      // memory - ceil(7.5%) - (255 + 11 x pods) - 100 eviction
      "8, 29, 6903",   // m5.large: 8192 - 615 - 574 - 100
      "16, 58, 14162", // m5.xlarge: 16384 - 1229 - 893 - 100
      "32, 58, 29317"})
  void memoryKeepsVmOverheadKubeReservedAndEviction(long memoryGiB, long pods, long allocatableMiB) {
    Resources allocatable = KubeletReserve.allocatable(new Resources(2000, memoryGiB * GIB, 0, pods, Map.of()));
    assertEquals(allocatableMiB * MIB, allocatable.memoryBytes());
    assertEquals(pods, allocatable.pods());
  }

  @ParameterizedTest(name = "{0} GiB disk keeps {1} MiB")
  @CsvSource({"20, 17408", "100, 91136", "0, 0"})
  void ephemeralStorageKeepsOneGibAndTenPercent(long diskGiB, long allocatableMiB) {
    Resources allocatable = KubeletReserve.allocatable(new Resources(2000, 8 * GIB, diskGiB * GIB, 29, Map.of()));
    assertEquals(allocatableMiB * MIB, allocatable.ephemeralStorageBytes());
  }

  @org.junit.jupiter.api.Test
  void kubeReservedSettingOnlyCpuKeepsTheDefaultMemoryAndDiskReserve() {
    var onlyCpu = new KubeletSettings(null, null, new Resources(200, 0, 0, 0, Map.of()), null, null);
    Resources allocatable = KubeletReserve.allocatable(new Resources(2000, 8 * GIB, 20 * GIB, 29, Map.of()), onlyCpu);
    assertEquals(1800, allocatable.milliCpu());
    assertEquals(6903 * MIB, allocatable.memoryBytes(), "m5.large keeps 255 + 11 x 29 MiB reserved for the kubelet");
    assertEquals(17408 * MIB, allocatable.ephemeralStorageBytes());
  }

  @org.junit.jupiter.api.Test
  void theLargestHardOrSoftEvictionThresholdIsHeldBackAPercentageOfTheResource() {
    Resources capacity = new Resources(2000, 8 * GIB, 20 * GIB, 29, Map.of());
    var memory = new KubeletSettings(null, null, null, null,
        java.util.List.of(EvictionThreshold.ofBytes(300 * MIB), EvictionThreshold.ofPercent(10)), java.util.List.of(EvictionThreshold.ofPercent(20)));
    Resources allocatable = KubeletReserve.allocatable(capacity, memory);
    // 8 GiB less the 7.5% VM overhead is 7578 MiB; 10% of it (758 MiB, rounded up) beats the 300 MiB.
    long afterOverhead = 8192 * MIB - 615 * MIB;
    assertEquals(afterOverhead - (255 + 11 * 29) * MIB - (long) Math.ceil(afterOverhead * 0.10), allocatable.memoryBytes());
    assertEquals(20 * GIB - GIB - 4 * GIB, allocatable.ephemeralStorageBytes(), "nodefs.available 20% instead of 10%");
  }

  @org.junit.jupiter.api.Test
  void reservesPastALongReserveEverythingInsteadOfWrappingIntoAGift() {
    // A node class may reserve Long.MAX_VALUE bytes (the most ResourceQuantities reads); added to the VM overhead and
    // the eviction threshold it must stay the most, so the node offers pods nothing rather than exabytes.
    var kubelet = new KubeletSettings(null, null, new Resources(Long.MAX_VALUE, Long.MAX_VALUE, 0, 0, Map.of()),
        new Resources(1000, GIB, 0, 0, Map.of()), java.util.List.of(), java.util.List.of());
    Resources allocatable = KubeletReserve.allocatable(new Resources(2000, 8 * GIB, 20 * GIB, 29, Map.of()), kubelet);
    org.junit.jupiter.api.Assertions.assertTrue(allocatable.memoryBytes() <= 0 && allocatable.milliCpu() <= 0, allocatable.toString());
  }
}
