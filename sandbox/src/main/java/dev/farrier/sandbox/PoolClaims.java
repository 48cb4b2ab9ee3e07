package dev.farrier.sandbox;

import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A NodePool's NodeClaims as one read of its Nodes and one of its claims sees them.
 *
 * @param imagesByNode each Node of the pool whose claim is not being deleted, with the image that claim launched
 * @param live the pool's claims not being deleted, with a Node or still launching
 */
public record PoolClaims(Map<String, String> imagesByNode, long live) {
  public static PoolClaims read(KubernetesClient kube, String nodePool) {
    Set<String> nodes = new HashSet<>();
    kube.nodes().withLabel(WellKnown.NODEPOOL_LABEL, nodePool).list().getItems()
        .forEach(n -> nodes.add(n.getMetadata().getName()));
    Map<String, String> images = new TreeMap<>();
    long live = 0;
    for (GenericKubernetesResource claim : kube.genericKubernetesResources("karpenter.sh/v1", "NodeClaim")
        .withLabel(WellKnown.NODEPOOL_LABEL, nodePool).list().getItems()) {
      if (claim.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      live++;
      if (claim.getAdditionalProperties().get("status") instanceof Map<?, ?> s && s.get("nodeName") != null
          && nodes.contains(s.get("nodeName").toString())) {
        images.put(s.get("nodeName").toString(), Objects.toString(s.get("imageID"), null));
      }
    }
    return new PoolClaims(images, live);
  }
}
