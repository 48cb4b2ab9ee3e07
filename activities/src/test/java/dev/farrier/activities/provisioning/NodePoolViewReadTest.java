package dev.farrier.activities.provisioning;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.crd.NodeClaimTemplate;
import dev.farrier.activities.crd.NodeClaimTemplateSpec;
import dev.farrier.activities.crd.NodeClassReference;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolSpec;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.ExpiryMode;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the planners read of a NodePool's Farrier-only annotations. */
class NodePoolViewReadTest {
  private static NodePool pool(Map<String, String> annotations) {
    var pool = new NodePool();
    pool.setMetadata(new ObjectMetaBuilder().withName("default").withAnnotations(annotations).build());
    pool.setSpec(new NodePoolSpec(new NodeClaimTemplate(null, new NodeClaimTemplateSpec(null, null, null,
        NodeClassReference.ec2NodeClass("default"), null, null)), null, null, null));
    return pool;
  }

  @Test
  void expiryIsForcefulUnlessTheNodePoolAsksForReplaceFirst() {
    assertEquals(ExpiryMode.FORCEFUL, NodePoolViews.of(pool(Map.of()), List.of()).expiry());
    assertEquals(ExpiryMode.REPLACE_FIRST, NodePoolViews.of(
        pool(Map.of(WellKnown.EXPIRY_ANNOTATION, "replace-first")), List.of()).expiry());
    assertEquals(ExpiryMode.FORCEFUL, NodePoolViews.of(
        pool(Map.of(WellKnown.EXPIRY_ANNOTATION, "forceful")), List.of()).expiry());
  }
}
