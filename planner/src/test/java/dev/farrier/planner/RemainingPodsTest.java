package dev.farrier.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.Resources;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RemainingPodsTest {
  @Test
  void powersOfTwoAndTinyRequestsKeepTheirValue() {
    Resources r = Resources.of(1024, 256L << 20, 1);
    assertEquals(r, RemainingPods.bucket(r));
    assertEquals(Resources.of(10, 16, 1), RemainingPods.bucket(Resources.of(10, 16, 1)));
  }

  /** Pods sized one by one (all different) still give few vectors to pack, each within 10% of the real requests. */
  @Test
  void distinctRequestsFallIntoFewNearbyVectors() {
    Set<Resources> vectors = new HashSet<>();
    for (long cpu = 100; cpu <= 1500; cpu++) {
      long memory = (100 + cpu * 3) << 20;
      Resources bucket = RemainingPods.bucket(Resources.of(cpu, memory, 1));
      vectors.add(bucket);
      assertTrue(Math.abs(bucket.milliCpu() - cpu) <= 0.1 * cpu, cpu + " -> " + bucket.milliCpu());
      assertTrue(Math.abs(bucket.memoryBytes() - memory) <= 0.1 * memory, memory + " -> " + bucket.memoryBytes());
    }
    assertTrue(vectors.size() <= 40, "1,401 distinct pods became " + vectors.size() + " vectors");
  }
}
