package dev.farrier.sandbox.chaos;

import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Whether the fleet is where its users last put it, read from the API server alone: every NodeClaim not being deleted
 * runs an image its EC2NodeClass resolves now (after a rollout or a drift, its target) and carries its NodePool's
 * template labels as they are now (after an edit). What is left off target is a drift never replaced, except on a node
 * a {@code karpenter.sh/do-not-disrupt} pod holds: drift is voluntary, and that pod keeps its node as it is (as in
 * Karpenter) until it leaves.
 */
final class TargetCheck {
  private final KubernetesClient kube;

  TargetCheck(KubernetesClient kube) {
    this.kube = kube;
  }

  /**
   * Each NodeClaim off target, with why; empty when the whole fleet is on target. {@code pods} are the monitor's last
   * observation's (its watch already holds them), for the nodes do-not-disrupt pods hold.
   */
  List<String> offTarget(List<Observation.PodState> pods) {
    Map<String, Set<String>> images = new HashMap<>();
    for (var nodeClass : kube.genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").list().getItems()) {
      images.put(nodeClass.getMetadata().getName(), list(map(nodeClass.getAdditionalProperties().get("status")).get("amis")).stream()
          .map(ami -> String.valueOf(map(ami).get("id"))).collect(Collectors.toSet()));
    }
    Map<String, Map<String, Object>> templateLabels = new HashMap<>();
    for (var pool : kube.genericKubernetesResources("karpenter.sh/v1", "NodePool").list().getItems()) {
      var template = map(map(pool.getAdditionalProperties().get("spec")).get("template"));
      templateLabels.put(pool.getMetadata().getName(), map(map(template.get("metadata")).get("labels")));
    }
    Set<String> held = pods.stream().filter(Observation.PodState::doNotDisrupt).map(Observation.PodState::node)
        .filter(Objects::nonNull).collect(Collectors.toSet());
    List<String> off = new ArrayList<>();
    for (GenericKubernetesResource claim : kube.genericKubernetesResources("karpenter.sh/v1", "NodeClaim").list().getItems()) {
      if (claim.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      String name = claim.getMetadata().getName();
      if (held.contains(String.valueOf(map(claim.getAdditionalProperties().get("status")).get("nodeName")))) {
        continue;
      }
      String nodeClass = String.valueOf(map(map(claim.getAdditionalProperties().get("spec")).get("nodeClassRef")).get("name"));
      Object image = map(claim.getAdditionalProperties().get("status")).get("imageID");
      if (!images.getOrDefault(nodeClass, Set.of()).contains(String.valueOf(image))) {
        off.add(name + " on image " + image + ", not one of " + nodeClass + "'s " + images.getOrDefault(nodeClass, Set.of()));
      }
      Map<String, String> labels = claim.getMetadata().getLabels() == null ? Map.of() : claim.getMetadata().getLabels();
      String pool = labels.get(WellKnown.NODEPOOL_LABEL);
      templateLabels.getOrDefault(pool, Map.of()).forEach((key, value) -> {
        if (!Objects.equals(String.valueOf(value), labels.get(key))) {
          off.add(name + " label " + key + "=" + labels.get(key) + ", its NodePool " + pool + " says " + value);
        }
      });
    }
    return off;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  private static List<?> list(Object value) {
    return value instanceof List<?> l ? l : List.of();
  }
}
