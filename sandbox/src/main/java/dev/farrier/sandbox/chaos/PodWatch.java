package dev.farrier.sandbox.chaos;

import dev.farrier.activities.views.PodViews;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.Tolerations;
import dev.farrier.sandbox.chaos.Observation.PodChange;
import dev.farrier.sandbox.chaos.Observation.PodState;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Every pod and every change of one, from an informer: the changes that alter what the monitor reads of a pod (a
 * status heartbeat does not) are queued in the order the watch delivered them, with the pod's state after each, until
 * the next {@link #drain}. The pods and the queue change together under one lock, so a drained snapshot is exactly the
 * previous snapshot with the drained changes applied.
 */
final class PodWatch implements ResourceEventHandler<Pod>, AutoCloseable {
  /** The pods at one instant and the changes that led there since the previous drain. */
  record Drained(List<PodState> pods, List<PodChange> changes) {}

  private final SharedIndexInformer<Pod> informer;
  private final Map<String, PodState> pods = new LinkedHashMap<>();
  private List<PodChange> changes = new ArrayList<>();

  PodWatch(SharedIndexInformer<Pod> informer) {
    this.informer = informer;
  }

  synchronized Drained drain() {
    var drained = new Drained(List.copyOf(pods.values()), changes);
    changes = new ArrayList<>();
    return drained;
  }

  @Override
  public void onAdd(Pod pod) {
    changed(pod);
  }

  @Override
  public void onUpdate(Pod before, Pod after) {
    changed(after);
  }

  @Override
  public synchronized void onDelete(Pod pod, boolean finalStateUnknown) {
    PodState last = pods.remove(key(pod));
    changes.add(new PodChange(last != null && finalStateUnknown ? last : state(pod), true, finalStateUnknown));
  }

  @Override
  public void close() {
    informer.close();
  }

  private synchronized void changed(Pod pod) {
    PodState now = state(pod);
    if (!now.equals(pods.put(now.key(), now))) {
      changes.add(new PodChange(now, false));
    }
  }

  private static String key(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }

  static PodState state(Pod pod) {
    var meta = pod.getMetadata();
    var status = pod.getStatus();
    List<PodCondition> conditions = status == null || status.getConditions() == null ? List.of() : status.getConditions();
    boolean ready = conditions.stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    String disruptionTarget = conditions.stream().filter(c -> "DisruptionTarget".equals(c.getType()) && "True".equals(c.getStatus()))
        .map(c -> Objects.requireNonNullElse(c.getReason(), "")).findFirst().orElse(null);
    Map<String, String> annotations = Objects.requireNonNullElse(meta.getAnnotations(), Map.of());
    return new PodState(meta.getNamespace(), meta.getName(), pod.getSpec() == null ? null : pod.getSpec().getNodeName(),
        status == null ? null : status.getPhase(), ready, meta.getDeletionTimestamp() != null, PodViews.ownerKind(pod),
        Objects.requireNonNullElse(meta.getLabels(), Map.of()), "true".equals(annotations.get(WellKnown.DO_NOT_DISRUPT_ANNOTATION)),
        Tolerations.toleratesDisrupted(PodViews.tolerations(pod.getSpec())), disruptionTarget);
  }
}
