package dev.farrier.sandbox.bench;

import dev.farrier.worker.AddedOrUpdated;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches a benchmark's pods (namespace and label {@code app}) and notes each one's UID and, on this process's clock,
 * when it was first seen marked Unschedulable by the kube-scheduler, bound to a node, and running (phase Running and
 * Ready).
 */
public final class PodWatch implements AutoCloseable {
  /** What was seen of one pod so far; a field is null until that moment was seen. */
  public record Seen(String uid, Instant unschedulable, Instant bound, String node, Instant running) {
    Seen merge(Pod pod, Instant now) {
      String id = uid == null ? pod.getMetadata().getUid() : uid;
      Instant u = unschedulable == null && PodWatch.unschedulable(pod) ? now : unschedulable;
      String n = pod.getSpec().getNodeName() == null || pod.getSpec().getNodeName().isEmpty() ? node : pod.getSpec().getNodeName();
      Instant b = bound == null && n != null ? now : bound;
      Instant r = running == null && PodWatch.running(pod) ? now : running;
      return new Seen(id, u, b, n, r);
    }
  }

  private final Map<String, Seen> seen = new ConcurrentHashMap<>();
  private final SharedIndexInformer<Pod> informer;

  public PodWatch(KubernetesClient kube, String namespace, String app) {
    informer = kube.pods().inNamespace(namespace).withLabel("app", app).inform(new AddedOrUpdated<>(this::note));
  }

  private void note(Pod pod) {
    Instant now = Instant.now();
    seen.compute(pod.getMetadata().getName(), (name, before) -> (before == null ? new Seen(null, null, null, null, null) : before).merge(pod, now));
  }

  public Map<String, Seen> seen() {
    return Map.copyOf(seen);
  }

  public long bound() {
    return seen.values().stream().filter(s -> s.bound() != null).count();
  }

  public long running() {
    return seen.values().stream().filter(s -> s.running() != null).count();
  }

  static boolean unschedulable(Pod pod) {
    return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
        .anyMatch(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason()));
  }

  /** Running and Ready. */
  public static boolean running(Pod pod) {
    return pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase()) && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  @Override
  public void close() {
    informer.close();
  }
}
