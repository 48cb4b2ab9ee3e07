package dev.farrier.activities.disruption;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Karpenter's two disruption costs of a node, computed by hand from its pods' deletion costs and priorities. */
class ConsolidationViewsTest {
  private static Pod pod(String name, Map<String, String> annotations, Integer priority) {
    return new PodBuilder().withNewMetadata().withName(name).withAnnotations(annotations).endMetadata()
        .withNewSpec().withPriority(priority).endSpec().build();
  }

  private static final List<Pod> PODS = List.of(
      pod("plain", Map.of(), null),                                                                  // 1
      pod("costly", Map.of(ConsolidationViews.DELETION_COST_ANNOTATION, String.valueOf(1 << 30)), null), // 1 + 2^30 / 2^27 = 9
      pod("cheap", Map.of(), -5 << 25),                                                              // 1 - 5 = -4
      pod("capped", Map.of(ConsolidationViews.DELETION_COST_ANNOTATION, String.valueOf(Integer.MAX_VALUE)), null)); // 17, clamped to 10

  @Test
  void balancedCountsTheNodeOnceAndOnlyThePositivePodCosts() {
    assertEquals(1 + 1 + 9 + 0 + 10, ConsolidationViews.moveCost(PODS), 1e-9);
    assertEquals(1.0, ConsolidationViews.moveCost(List.of()), "an empty node still costs 1");
  }

  @Test
  void theOrderingCostSumsEveryPodsCostNegativeOnesIncluded() {
    assertEquals(1 + 9 - 4 + 10, ConsolidationViews.disruptionCost(PODS, null, Instant.EPOCH), 1e-9);
  }
}
