package dev.farrier.activities.kube;

import static dev.farrier.activities.kube.MergePatches.metadataChanges;
import static dev.farrier.activities.kube.MergePatches.require;
import static dev.farrier.activities.kube.MergePatches.withFinalizer;

import dev.farrier.model.Taint;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@link NodeWriter} on the fabric8 client. Every change is a read-modify-write on the API server
 * ({@link OptimisticPatcher}: the read resourceVersion as precondition, retried from a fresh read on conflict), so a
 * taint or finalizer another writer added in between is never lost, and nothing is sent when the node is already so.
 * Removals, uncordon and the delete treat a missing node as done; the other writes throw
 * {@link ObjectNotFoundException}.
 */
final class Fabric8NodeWriter implements NodeWriter {
  private final KubernetesClient client;
  private final OptimisticPatcher patcher;

  Fabric8NodeWriter(KubernetesClient client, OptimisticPatcher patcher) {
    this.client = client;
    this.patcher = patcher;
  }

  @Override
  public boolean patchNodeMetadata(String name, Map<String, String> labels, Map<String, String> annotations) {
    var outcome = patcher.apply(Node.class, name, false, node -> {
      Map<String, Object> metadata = metadataChanges(node, labels, annotations);
      return metadata.isEmpty() ? null : Map.of("metadata", metadata);
    });
    require(outcome, "Node", name);
    return outcome.changed();
  }

  @Override
  public boolean registerNode(String name, Map<String, String> labels, Map<String, String> annotations, String finalizer,
      Taint removedTaint) {
    var outcome = patcher.apply(Node.class, name, false, node -> {
      Map<String, Object> metadata = metadataChanges(node, labels, annotations);
      Map<String, Object> finalizers = withFinalizer(finalizer, true).apply(node);
      if (finalizers != null) {
        metadata.putAll(metadataOf(finalizers));
      }
      Map<String, Object> patch = new LinkedHashMap<>();
      if (!metadata.isEmpty()) {
        patch.put("metadata", metadata);
      }
      Map<String, Object> untainted = withoutTaint(node, removedTaint);
      if (untainted != null) {
        patch.putAll(untainted);
      }
      return patch.isEmpty() ? null : patch;
    });
    require(outcome, "Node", name);
    return outcome.changed();
  }

  @Override
  public boolean addNodeTaint(String name, Taint taint) {
    var outcome = patcher.apply(Node.class, name, false, node -> {
      List<io.fabric8.kubernetes.api.model.Taint> taints = taintsOf(node);
      boolean present = taints.stream().anyMatch(t -> sameTaint(t, taint) && valueOf(t).equals(valueOf(taint)));
      if (present) {
        return null;
      }
      List<io.fabric8.kubernetes.api.model.Taint> updated = new ArrayList<>(taints.stream().filter(t -> !sameTaint(t, taint)).toList());
      updated.add(new TaintBuilder().withKey(taint.key()).withValue(emptyToNull(taint.value())).withEffect(taint.effect()).build());
      return Map.of("spec", Map.of("taints", updated));
    });
    require(outcome, "Node", name);
    return outcome.changed();
  }

  @Override
  public boolean removeNodeTaint(String name, Taint taint) {
    return patcher.apply(Node.class, name, false, node -> withoutTaint(node, taint)).changed();
  }

  @Override
  public boolean cordonNode(String name) {
    var outcome = patcher.apply(Node.class, name, false,
        node -> isUnschedulable(node) ? null : Map.of("spec", Map.of("unschedulable", true)));
    require(outcome, "Node", name);
    return outcome.changed();
  }

  @Override
  public boolean uncordonNode(String name) {
    return patcher.apply(Node.class, name, false, node -> {
      if (!isUnschedulable(node)) {
        return null;
      }
      Map<String, Object> spec = new HashMap<>();
      spec.put("unschedulable", null); // merge patch null: remove the field, as kubectl uncordon does
      return Map.of("spec", spec);
    }).changed();
  }

  @Override
  public boolean addNodeFinalizer(String name, String finalizer) {
    var outcome = patcher.apply(Node.class, name, false, withFinalizer(finalizer, true));
    require(outcome, "Node", name);
    return outcome.changed();
  }

  @Override
  public boolean removeNodeFinalizer(String name, String finalizer) {
    return patcher.apply(Node.class, name, false, withFinalizer(finalizer, false)).changed();
  }

  @Override
  public void deleteNode(String name) {
    client.nodes().withName(name).delete();
  }

  /** The merge patch removing the taints with {@code taint}'s key and effect; null when the node has none. */
  private static Map<String, Object> withoutTaint(Node node, Taint taint) {
    List<io.fabric8.kubernetes.api.model.Taint> taints = taintsOf(node);
    List<io.fabric8.kubernetes.api.model.Taint> kept = taints.stream().filter(t -> !sameTaint(t, taint)).toList();
    return kept.size() == taints.size() ? null : Map.of("spec", Map.of("taints", kept));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> metadataOf(Map<String, Object> patch) {
    return (Map<String, Object>) patch.get("metadata");
  }

  private static List<io.fabric8.kubernetes.api.model.Taint> taintsOf(Node node) {
    return node.getSpec() == null || node.getSpec().getTaints() == null ? List.of() : node.getSpec().getTaints();
  }

  /** Kubernetes identifies a node taint by key and effect. */
  private static boolean sameTaint(io.fabric8.kubernetes.api.model.Taint t, Taint taint) {
    return Objects.equals(t.getKey(), taint.key()) && Objects.equals(t.getEffect(), taint.effect());
  }

  private static String valueOf(io.fabric8.kubernetes.api.model.Taint t) {
    return t.getValue() == null ? "" : t.getValue();
  }

  private static String valueOf(Taint t) {
    return t.value() == null ? "" : t.value();
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  private static boolean isUnschedulable(Node node) {
    return node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
  }
}
