package dev.farrier.sandbox.bench.peer;

import dev.farrier.sandbox.bench.PodWatch;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every pod of the benchmark's namespace, on this process's clock: when it was first seen (its creation as the API
 * server announced it), first Running and Ready, and deleted. What the tables count of pods comes from here, for both
 * controllers alike.
 */
final class PodLedger implements AutoCloseable {
  /** One pod; a time is null until it was seen. */
  record Entry(String app, Instant seen, Instant running, Instant deleted) {}

  private final Map<String, Entry> pods = new ConcurrentHashMap<>();
  private final SharedIndexInformer<Pod> informer;

  PodLedger(KubernetesClient kube, String namespace) {
    informer = kube.pods().inNamespace(namespace).inform(new Seen<>(this::note));
  }

  private void note(Pod pod, boolean deleted) {
    Instant now = Instant.now();
    String app = pod.getMetadata().getLabels() == null ? "" : pod.getMetadata().getLabels().getOrDefault("app", "");
    pods.compute(pod.getMetadata().getUid(), (uid, e) -> new Entry(app, e == null ? now : e.seen(),
        e != null && e.running() != null ? e.running() : PodWatch.running(pod) ? now : null,
        e != null && e.deleted() != null ? e.deleted() : deleted ? now : null));
  }

  List<Entry> entries() {
    return List.copyOf(pods.values());
  }

  /** Pods not deleted and not yet Running. */
  long waiting() {
    return pods.values().stream().filter(e -> e.deleted() == null && e.running() == null).count();
  }

  /** Pods of {@code app} Running and not deleted. */
  long running(String app) {
    return pods.values().stream().filter(e -> e.app().equals(app) && e.deleted() == null && e.running() != null).count();
  }

  long running() {
    return pods.values().stream().filter(e -> e.deleted() == null && e.running() != null).count();
  }

  /** Pods of {@code app} deleted at or after {@code since}. */
  long deletedSince(String app, Instant since) {
    return pods.values().stream().filter(e -> (app == null || e.app().equals(app)) && e.deleted() != null && !e.deleted().isBefore(since))
        .count();
  }

  @Override
  public void close() {
    informer.close();
  }
}
