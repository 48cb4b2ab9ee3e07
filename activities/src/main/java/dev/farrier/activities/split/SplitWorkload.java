package dev.farrier.activities.split;

import dev.farrier.planner.CapacitySplit;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.Map;
import java.util.Objects;

/**
 * A Deployment or StatefulSet annotated {@value CapacitySplit#ANNOTATION}, as the split reads it.
 *
 * @param minimum      the annotation's value as written
 * @param replicas     {@code spec.replicas} (1 when unset, as the API server defaults it)
 * @param gated        whether its pod template carries the scheduling gate {@value CapacitySplit#GATE}
 * @param nodeSelector its pod template's nodeSelector
 */
public record SplitWorkload(String kind, String namespace, String name, String uid, String minimum, int replicas,
    LabelSelector selector, boolean gated, Map<String, String> nodeSelector) {

  /** The annotated workload, or null when {@code deployment} does not carry the annotation. */
  public static SplitWorkload of(Deployment deployment) {
    return of("Deployment", deployment.getMetadata(), deployment.getSpec().getReplicas(), deployment.getSpec().getSelector(),
        deployment.getSpec().getTemplate());
  }

  /** The annotated workload, or null when {@code statefulSet} does not carry the annotation. */
  public static SplitWorkload of(StatefulSet statefulSet) {
    return of("StatefulSet", statefulSet.getMetadata(), statefulSet.getSpec().getReplicas(), statefulSet.getSpec().getSelector(),
        statefulSet.getSpec().getTemplate());
  }

  private static SplitWorkload of(String kind, io.fabric8.kubernetes.api.model.ObjectMeta meta, Integer replicas, LabelSelector selector,
      PodTemplateSpec template) {
    String minimum = meta.getAnnotations() == null ? null : meta.getAnnotations().get(CapacitySplit.ANNOTATION);
    if (minimum == null || meta.getDeletionTimestamp() != null) {
      return null;
    }
    var spec = template == null ? null : template.getSpec();
    boolean gated = spec != null && spec.getSchedulingGates() != null
        && spec.getSchedulingGates().stream().anyMatch(g -> CapacitySplit.GATE.equals(g.getName()));
    Map<String, String> nodeSelector = spec == null || spec.getNodeSelector() == null ? Map.of() : Map.copyOf(spec.getNodeSelector());
    return new SplitWorkload(kind, meta.getNamespace(), meta.getName(), meta.getUid(), minimum, Objects.requireNonNullElse(replicas, 1),
        selector, gated, nodeSelector);
  }

  @Override
  public String toString() {
    return kind + " " + namespace + "/" + name;
  }
}
