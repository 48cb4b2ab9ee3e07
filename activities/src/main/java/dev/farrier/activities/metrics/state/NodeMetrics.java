package dev.farrier.activities.metrics.state;

import dev.farrier.activities.metrics.LabelledGauge;
import dev.farrier.activities.metrics.MetricCatalog;
import dev.farrier.activities.metrics.MetricsRefresh;
import dev.farrier.activities.metrics.NodeLabels;

import dev.farrier.activities.kube.ClusterCache;
import dev.farrier.activities.views.PodViews;
import dev.farrier.model.Resources;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Karpenter's per-node resource gauges from the informer cache, set at each scrape: every node's allocatable, its
 * capacity less allocatable (system overhead), and the requests and limits of the pods bound to it that have not
 * finished, of all of them and of the DaemonSet pods alone. Labelled as Karpenter labels them ({@link NodeLabels}).
 * Requests and limits list the resources some pod names; allocatable and overhead those the node reports. And each
 * node's age.
 */
public final class NodeMetrics implements MetricsRefresh {
  private final ClusterCache cache;
  private final LabelledGauge allocatable;
  private final LabelledGauge overhead;
  private final LabelledGauge podRequests;
  private final LabelledGauge podLimits;
  private final LabelledGauge daemonRequests;
  private final LabelledGauge daemonLimits;
  private final LabelledGauge lifetime;
  private final Clock clock;

  public NodeMetrics(ClusterCache cache, MeterRegistry meters, Clock clock) {
    this.cache = cache;
    this.clock = clock;
    this.lifetime = MetricCatalog.NODES_CURRENT_LIFETIME.labelledGauge(meters);
    this.allocatable = MetricCatalog.NODES_ALLOCATABLE.labelledGauge(meters);
    this.overhead = MetricCatalog.NODES_SYSTEM_OVERHEAD.labelledGauge(meters);
    this.podRequests = MetricCatalog.NODES_POD_REQUESTS.labelledGauge(meters);
    this.podLimits = MetricCatalog.NODES_POD_LIMITS.labelledGauge(meters);
    this.daemonRequests = MetricCatalog.NODES_DAEMON_REQUESTS.labelledGauge(meters);
    this.daemonLimits = MetricCatalog.NODES_DAEMON_LIMITS.labelledGauge(meters);
  }

  /** Nothing while the cache is not synced (the last values stay). */
  @Override
  public void refresh() {
    if (!cache.synced()) {
      return;
    }
    Map<String, List<Pod>> podsByNode = new HashMap<>();
    for (Pod pod : cache.boundPods()) {
      String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
      if (!"Succeeded".equals(phase) && !"Failed".equals(phase)) {
        podsByNode.computeIfAbsent(pod.getSpec().getNodeName(), n -> new ArrayList<>()).add(pod);
      }
    }
    List<LabelledGauge.Row> allocatableRows = new ArrayList<>();
    List<LabelledGauge.Row> overheadRows = new ArrayList<>();
    List<LabelledGauge.Row> requestRows = new ArrayList<>();
    List<LabelledGauge.Row> limitRows = new ArrayList<>();
    List<LabelledGauge.Row> daemonRequestRows = new ArrayList<>();
    List<LabelledGauge.Row> daemonLimitRows = new ArrayList<>();
    List<LabelledGauge.Row> lifetimeRows = new ArrayList<>();
    for (Node node : cache.nodes()) {
      lifetimeRows.add(new LabelledGauge.Row(NodeLabels.values(node, null),
          Duration.between(Instant.parse(node.getMetadata().getCreationTimestamp()), clock.instant()).toMillis() / 1000.0));
      Map<String, Quantity> capacity = node.getStatus() == null ? null : node.getStatus().getCapacity();
      Map<String, Quantity> allocatableQuantities = node.getStatus() == null ? null : node.getStatus().getAllocatable();
      if (allocatableQuantities != null) {
        allocatableQuantities.forEach((resource, q) -> allocatableRows.add(row(node, resource, amount(q))));
        if (capacity != null) {
          capacity.forEach((resource, q) -> {
            if (allocatableQuantities.containsKey(resource)) {
              overheadRows.add(row(node, resource, amount(q).subtract(amount(allocatableQuantities.get(resource)))));
            }
          });
        }
      }
      List<Pod> pods = podsByNode.getOrDefault(node.getMetadata().getName(), List.of());
      List<Pod> daemons = pods.stream().filter(NodeMetrics::ownedByDaemonSet).toList();
      add(node, pods.stream().map(p -> PodViews.requests(p.getSpec())).toList(), requestRows);
      add(node, pods.stream().map(p -> PodViews.limits(p.getSpec())).toList(), limitRows);
      add(node, daemons.stream().map(p -> PodViews.requests(p.getSpec())).toList(), daemonRequestRows);
      add(node, daemons.stream().map(p -> PodViews.limits(p.getSpec())).toList(), daemonLimitRows);
    }
    allocatable.set(allocatableRows);
    overhead.set(overheadRows);
    podRequests.set(requestRows);
    podLimits.set(limitRows);
    daemonRequests.set(daemonRequestRows);
    daemonLimits.set(daemonLimitRows);
    lifetime.set(lifetimeRows);
  }

  private static boolean ownedByDaemonSet(Pod pod) {
    return pod.getMetadata().getOwnerReferences() != null
        && pod.getMetadata().getOwnerReferences().stream().anyMatch(o -> "DaemonSet".equals(o.getKind()));
  }

  /** The sum of {@code each}, one row per resource some of them name (cpu in cores, the rest in base units). */
  private static void add(Node node, List<Resources> each, List<LabelledGauge.Row> into) {
    Resources total = each.stream().reduce(Resources.ZERO, Resources::plus);
    Map<String, Double> amounts = new LinkedHashMap<>();
    if (each.stream().anyMatch(r -> r.milliCpu() > 0)) {
      amounts.put("cpu", total.milliCpu() / 1000.0);
    }
    if (each.stream().anyMatch(r -> r.memoryBytes() > 0)) {
      amounts.put("memory", (double) total.memoryBytes());
    }
    if (each.stream().anyMatch(r -> r.ephemeralStorageBytes() > 0)) {
      amounts.put("ephemeral-storage", (double) total.ephemeralStorageBytes());
    }
    total.extended().forEach((name, amount) -> amounts.put(name, (double) amount));
    amounts.forEach((resource, amount) -> into.add(new LabelledGauge.Row(NodeLabels.values(node, NodeLabels.snake(resource)), amount)));
  }

  private static LabelledGauge.Row row(Node node, String resource, BigDecimal amount) {
    return new LabelledGauge.Row(NodeLabels.values(node, NodeLabels.snake(resource)), amount.doubleValue());
  }

  private static BigDecimal amount(Quantity quantity) {
    return Quantity.getAmountInBytes(quantity);
  }
}
