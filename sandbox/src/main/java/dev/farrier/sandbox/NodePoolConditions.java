package dev.farrier.sandbox;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;

/** Reads a NodePool's status condition as the sandbox's scenarios show it (type, status, reason, message). */
public final class NodePoolConditions {
  private NodePoolConditions() {}

  /** The condition of {@code type}, or null while the NodePool or its status has none. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> find(KubernetesClient kube, String pool, String type) {
    GenericKubernetesResource resource = kube.genericKubernetesResources("karpenter.sh/v1", "NodePool").withName(pool).get();
    Object status = resource == null ? null : resource.getAdditionalProperties().get("status");
    if (!(status instanceof Map<?, ?> map) || !(map.get("conditions") instanceof List<?> conditions)) {
      return null;
    }
    return conditions.stream().map(c -> (Map<String, Object>) c).filter(c -> type.equals(c.get("type"))).findFirst().orElse(null);
  }

  /** Whether the NodePool's condition {@code type} is True now. */
  public static boolean isTrue(KubernetesClient kube, String pool, String type) {
    var condition = find(kube, pool, type);
    return condition != null && "True".equals(condition.get("status"));
  }
}
