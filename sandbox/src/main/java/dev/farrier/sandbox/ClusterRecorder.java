package dev.farrier.sandbox;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches the cluster while a scenario runs and keeps what the end-to-end assertions need: when each node became
 * Ready and when it was cordoned, and every change in the number of Ready pods of one app (so a PDB violation
 * between two polls cannot be missed).
 */
public final class ClusterRecorder implements AutoCloseable {
  public record NodeMoment(String node, String what, Instant at) {}

  public record ReadyCount(Instant at, int ready) {}

  private final String namespace;
  private final String appLabel;
  private final List<NodeMoment> nodeMoments = new ArrayList<>();
  private final List<ReadyCount> readyCounts = new ArrayList<>();
  private final Map<String, Boolean> podReady = new ConcurrentHashMap<>();
  private final Map<String, String> nodeSeen = new ConcurrentHashMap<>();
  private final SharedIndexInformer<Node> nodes;
  private final SharedIndexInformer<Pod> pods;

  public ClusterRecorder(KubernetesClient client, String namespace, String appLabel) {
    this.namespace = namespace;
    this.appLabel = appLabel;
    this.nodes = client.nodes().inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Node node) {
        observe(node);
      }

      @Override
      public void onUpdate(Node oldNode, Node node) {
        observe(node);
      }

      @Override
      public void onDelete(Node node, boolean unknown) {
        moment(node.getMetadata().getName(), "deleted");
      }
    });
    this.pods = client.pods().inNamespace(namespace).withLabel("app", appLabel).inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod) {
        observe(pod);
      }

      @Override
      public void onUpdate(Pod oldPod, Pod pod) {
        observe(pod);
      }

      @Override
      public void onDelete(Pod pod, boolean unknown) {
        podReady.remove(pod.getMetadata().getName());
        count();
      }
    });
  }

  private void observe(Node node) {
    var name = node.getMetadata().getName();
    boolean ready = node.getStatus() != null && node.getStatus().getConditions() != null
        && node.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    boolean cordoned = Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    if (ready && nodeSeen.putIfAbsent(name + "/ready", "") == null) {
      moment(name, "ready");
    }
    if (cordoned && nodeSeen.putIfAbsent(name + "/cordoned", "") == null) {
      moment(name, "cordoned");
    }
  }

  private void observe(Pod pod) {
    boolean ready = pod.getMetadata().getDeletionTimestamp() == null && pod.getStatus() != null
        && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    podReady.put(pod.getMetadata().getName(), ready);
    count();
  }

  private synchronized void moment(String node, String what) {
    nodeMoments.add(new NodeMoment(node, what, Instant.now()));
  }

  private synchronized void count() {
    int ready = (int) podReady.values().stream().filter(Boolean::booleanValue).count();
    if (readyCounts.isEmpty() || readyCounts.getLast().ready() != ready) {
      readyCounts.add(new ReadyCount(Instant.now(), ready));
    }
  }

  public synchronized List<NodeMoment> nodeMoments() {
    return List.copyOf(nodeMoments);
  }

  public synchronized List<ReadyCount> readyCounts() {
    return List.copyOf(readyCounts);
  }

  public synchronized Optional<Instant> when(String node, String what) {
    return nodeMoments.stream().filter(m -> m.node().equals(node) && m.what().equals(what)).map(NodeMoment::at).findFirst();
  }

  /** The fewest Ready pods at any moment since {@code from}, counting the number in force at {@code from}; -1 if none seen. */
  public synchronized int minReadySince(Instant from) {
    Integer inForce = null;
    int min = Integer.MAX_VALUE;
    for (var c : readyCounts) {
      if (c.at().isBefore(from)) {
        inForce = c.ready();
      } else {
        min = Math.min(min, c.ready());
      }
    }
    if (inForce != null) {
      min = Math.min(min, inForce);
    }
    return min == Integer.MAX_VALUE ? -1 : min;
  }

  public String namespace() {
    return namespace;
  }

  public String appLabel() {
    return appLabel;
  }

  @Override
  public void close() {
    nodes.close();
    pods.close();
  }
}
