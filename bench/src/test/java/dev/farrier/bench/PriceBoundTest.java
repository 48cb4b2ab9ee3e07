package dev.farrier.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.Resources;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodeAllocatable;
import dev.farrier.planner.OfferingView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PriceBoundTest {
  private static final long GIB = 1L << 30;

  @Test
  void oneTypeIsBoughtForItsTighterDimensionOfAllocatable() {
    var m = type("m.large", 2, 8, 0.10);
    var allocatable = allocatable(m);
    // Exactly three nodes' worth of allocatable CPU and half that much memory: the CPU side decides.
    assertEquals(0.30, PriceBound.of(List.of(m), 3 * allocatable.milliCpu(), allocatable.memoryBytes()).perHour(), 1e-9);
  }

  @Test
  void mixesTwoTypesWhenThatIsCheaperThanEitherAlone() {
    var c = type("c.large", 2, 4, 0.08);
    var r = type("r.large", 2, 16, 0.12);
    var ca = allocatable(c);
    var ra = allocatable(r);
    // One of each covers exactly their summed allocatable; c alone needs >4 nodes for the memory, r alone 2 for CPU.
    assertEquals(0.20, PriceBound.of(List.of(c, r), ca.milliCpu() + ra.milliCpu(), ca.memoryBytes() + ra.memoryBytes())
        .perHour(), 1e-9);
  }

  @Test
  void neverExceedsTheCheapestWholeNodeFleet() {
    var random = new Random(7);
    for (int round = 0; round < 200; round++) {
      List<InstanceTypeView> types = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        types.add(type("t" + i, 1 + random.nextInt(8), 2 + random.nextInt(32), 0.01 + random.nextInt(100) / 100.0));
      }
      long cpu = 1 + random.nextInt(20_000);
      long memory = (1 + random.nextInt(60)) * GIB;
      double bound = PriceBound.of(types, cpu, memory).perHour();
      assertTrue(bound <= cheapestWholeFleet(types, cpu, memory) + 1e-9, "round " + round);
      assertTrue(bound > 0, "round " + round);
    }
  }

  /** Brute force over whole node counts of three types: the best any real placement could pay. */
  private static double cheapestWholeFleet(List<InstanceTypeView> types, long cpu, long memory) {
    double best = Double.POSITIVE_INFINITY;
    long[] typeCpu = types.stream().mapToLong(t -> allocatable(t).milliCpu()).toArray();
    long[] typeMemory = types.stream().mapToLong(t -> allocatable(t).memoryBytes()).toArray();
    for (int a = 0; a <= 60; a++) {
      for (int b = 0; b <= 60; b++) {
        for (int c = 0; c <= 60; c++) {
          int[] n = {a, b, c};
          long haveCpu = 0;
          long haveMemory = 0;
          double price = 0;
          for (int i = 0; i < 3; i++) {
            haveCpu += n[i] * typeCpu[i];
            haveMemory += n[i] * typeMemory[i];
            price += n[i] * types.get(i).offerings().getFirst().pricePerHour();
          }
          if (haveCpu >= cpu && haveMemory >= memory) {
            best = Math.min(best, price);
          }
        }
      }
    }
    return best;
  }

  private static Resources allocatable(InstanceTypeView type) {
    return NodeAllocatable.of(type, KubeletSettings.DEFAULTS);
  }

  private static InstanceTypeView type(String name, int vcpu, int memoryGiB, double price) {
    return new InstanceTypeView(name, "amd64", Map.of(), Resources.of(vcpu * 1000L, memoryGiB * GIB, 110),
        List.of(new OfferingView("zone-a", "on-demand", price, true), new OfferingView("zone-b", "spot", price * 2, true)));
  }
}
