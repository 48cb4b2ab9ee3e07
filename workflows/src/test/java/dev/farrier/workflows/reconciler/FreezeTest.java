package dev.farrier.workflows.reconciler;

import dev.farrier.model.Freeze;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which freeze holds a NodePool, or a rollout's NodePools: a cluster-wide one first, else the NodePool's own. */
class FreezeTest {
  private static final Freeze CLUSTER = new Freeze(null, "incident", "alice", 0);
  private static final Freeze GPU = new Freeze("gpu", "driver rollout", "bob", 0);

  @Test
  void aNodePoolFreezeHoldsOnlyThatNodePool() {
    Map<String, String> frozen = Freeze.byNodePool(List.of(GPU));
    assertEquals(GPU.describe(), Freeze.of(frozen, "gpu"));
    assertNull(Freeze.of(frozen, "web"));
    assertEquals(GPU.describe(), Freeze.ofAny(frozen, List.of("web", "gpu")));
    assertNull(Freeze.ofAny(frozen, List.of("web")));
    assertNull(Freeze.ofAny(Map.copyOf(frozen), List.of("web")), "the planner's immutable copy too");
  }

  @Test
  void aClusterWideFreezeHoldsEveryNodePoolAndComesFirst() {
    Map<String, String> frozen = Freeze.byNodePool(List.of(GPU, CLUSTER));
    assertEquals(CLUSTER.describe(), Freeze.of(frozen, "web"));
    assertEquals(CLUSTER.describe(), Freeze.of(frozen, "gpu"));
    assertEquals(CLUSTER.describe(), Freeze.ofAny(frozen, List.of("gpu")));
    assertNull(Freeze.ofAny(Map.of(), List.of("gpu")));
  }
}
