package dev.farrier.activities.split;

import dev.farrier.activities.views.PodViews;
import dev.farrier.model.Toleration;
import dev.farrier.planner.CapacitySplit;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Deployment or StatefulSet annotated {@value CapacitySplit#ANNOTATION}, as the split reads it. Its pods are the ones
 * it controls (by owner reference and UID), never the ones its selector happens to match.
 *
 * @param minimum      the annotation's value as written
 * @param replicas     {@code spec.replicas} (1 when unset, as the API server defaults it)
 * @param gated        whether its pod template carries the scheduling gate {@value CapacitySplit#GATE}
 * @param nodeSelector its pod template's nodeSelector
 * @param tolerations  its pod template's tolerations
 */
public record SplitWorkload(String kind, String namespace, String name, String uid, String minimum, int replicas, boolean gated,
    Map<String, String> nodeSelector, List<Toleration> tolerations) {
  static final String DEPLOYMENT = "Deployment";
  static final String STATEFUL_SET = "StatefulSet";

  /** The annotated workload, or null when {@code deployment} does not carry the annotation. */
  public static SplitWorkload of(Deployment deployment) {
    var spec = deployment.getSpec();
    return of(DEPLOYMENT, deployment.getMetadata(), spec == null ? null : spec.getReplicas(), spec == null ? null : spec.getTemplate());
  }

  /** The annotated workload, or null when {@code statefulSet} does not carry the annotation. */
  public static SplitWorkload of(StatefulSet statefulSet) {
    var spec = statefulSet.getSpec();
    return of(STATEFUL_SET, statefulSet.getMetadata(), spec == null ? null : spec.getReplicas(), spec == null ? null : spec.getTemplate());
  }

  private static SplitWorkload of(String kind, ObjectMeta meta, Integer replicas, PodTemplateSpec template) {
    String minimum = meta.getAnnotations() == null ? null : meta.getAnnotations().get(CapacitySplit.ANNOTATION);
    if (minimum == null || meta.getDeletionTimestamp() != null) {
      return null;
    }
    var spec = template == null ? null : template.getSpec();
    Map<String, String> nodeSelector = spec == null || spec.getNodeSelector() == null ? Map.of() : Map.copyOf(spec.getNodeSelector());
    return new SplitWorkload(kind, meta.getNamespace(), meta.getName(), meta.getUid(), minimum, Objects.requireNonNullElse(replicas, 1),
        templateGated(template), nodeSelector, spec == null ? List.of() : PodViews.tolerations(spec));
  }

  /** Whether a pod template carries {@value CapacitySplit#GATE}: the pods it creates come back to the split. */
  static boolean templateGated(PodTemplateSpec template) {
    var spec = template == null ? null : template.getSpec();
    return spec != null && spec.getSchedulingGates() != null
        && spec.getSchedulingGates().stream().anyMatch(g -> CapacitySplit.GATE.equals(g.getName()));
  }

  /** The same workload with another minimum. */
  public SplitWorkload withMinimum(String value) {
    return new SplitWorkload(kind, namespace, name, uid, value, replicas, gated, nodeSelector, tolerations);
  }

  /** The workload as an Event's involved object: its apiVersion, kind, namespace, name and UID. */
  public HasMetadata reference() {
    var ref = new GenericKubernetesResource();
    ref.setApiVersion("apps/v1");
    ref.setKind(kind);
    ref.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).withUid(uid).build());
    return ref;
  }

  /** The workload's key in this worker's memories. */
  String key() {
    return kind + "/" + namespace + "/" + name;
  }

  @Override
  public String toString() {
    return kind + " " + namespace + "/" + name;
  }
}
