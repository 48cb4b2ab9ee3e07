package dev.farrier.sandbox.bench;

import dev.farrier.worker.AddedOrUpdated;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches a NodePool's Nodes and notes, on this process's clock, when each was first seen (registered by the simulated
 * kubelet) and first seen Ready (kwok's node stage): how long the local stack takes to make a new node Ready, a part of
 * every replacement that Farrier does not control.
 */
final class NodeWatch implements AutoCloseable {
  /** One node: first seen, and first seen Ready (null until then). */
  record Seen(Instant registered, Instant ready) {}

  private final Map<String, Seen> seen = new ConcurrentHashMap<>();
  private final SharedIndexInformer<Node> informer;

  NodeWatch(KubernetesClient kube, String nodePool) {
    informer = kube.nodes().withLabel(WellKnown.NODEPOOL_LABEL, nodePool).inform(new AddedOrUpdated<>(this::note));
  }

  private void note(Node node) {
    Instant now = Instant.now();
    boolean ready = node.getStatus() != null && node.getStatus().getConditions() != null && node.getStatus().getConditions()
        .stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    seen.compute(node.getMetadata().getName(), (name, before) -> {
      Seen s = before == null ? new Seen(now, null) : before;
      return s.ready() == null && ready ? new Seen(s.registered(), now) : s;
    });
  }

  /** Milliseconds from registered to Ready of the nodes registered at or after {@code since} that became Ready. */
  List<Long> readyWaitsSince(Instant since) {
    return readyWaits(seen.values(), since);
  }

  static List<Long> readyWaits(Collection<Seen> nodes, Instant since) {
    return nodes.stream().filter(s -> !s.registered().isBefore(since) && s.ready() != null)
        .map(s -> s.ready().toEpochMilli() - s.registered().toEpochMilli()).sorted().toList();
  }

  @Override
  public void close() {
    informer.close();
  }
}
