package dev.farrier.activities.metrics.state;

import dev.farrier.activities.metrics.LabelledGauge;
import dev.farrier.activities.metrics.MetricCatalog;
import dev.farrier.activities.metrics.MetricsRefresh;
import dev.farrier.activities.metrics.NodeLabels;

import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.kube.ClusterCache;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Karpenter's cluster state, NodePool and pod startup metrics from the worker's informer cache ({@link ClusterCache}):
 * whether it is synced and since when not, the nodes it holds, each NodePool's {@code status.resources} (what Farrier's
 * status loop wrote) and {@code spec.limits}, and, for every pod seen turning Ready, the time from its creation to its
 * Ready condition's transition. A pod already Ready when the worker starts is not counted (its startup was before).
 */
public final class ClusterStateMetrics implements MetricsRefresh, AutoCloseable {
  private final ClusterCache cache;
  private final Clock clock;
  private final AtomicReference<Instant> unsyncedSince = new AtomicReference<>();
  private final LabelledGauge usage;
  private final LabelledGauge limit;
  private final Timer startup;
  private final ResourceEventHandler<Pod> podHandler;

  public ClusterStateMetrics(ClusterCache cache, MeterRegistry meters, Clock clock) {
    this.cache = cache;
    this.clock = clock;
    MetricCatalog.CLUSTER_STATE_SYNCED.gauge(meters, this, m -> m.cache.synced() ? 1 : 0);
    MetricCatalog.CLUSTER_STATE_UNSYNCED_TIME.gauge(meters, this, ClusterStateMetrics::unsyncedSeconds);
    MetricCatalog.CLUSTER_STATE_NODE_COUNT.gauge(meters, this, m -> m.cache.synced() ? m.cache.nodes().size() : Double.NaN);
    this.usage = MetricCatalog.NODEPOOLS_USAGE.labelledGauge(meters);
    this.limit = MetricCatalog.NODEPOOLS_LIMIT.labelledGauge(meters);
    this.startup = MetricCatalog.PODS_STARTUP_DURATION.timer(meters);
    this.podHandler = new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod) {}

      @Override
      public void onUpdate(Pod before, Pod after) {
        if (readySince(before).isEmpty()) {
          readySince(after).ifPresent(ready -> recordStartup(after, ready));
        }
      }

      @Override
      public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {}
    };
    cache.addPodHandler(podHandler);
  }

  private double unsyncedSeconds() {
    if (cache.synced()) {
      unsyncedSince.set(null);
      return 0;
    }
    Instant since = unsyncedSince.updateAndGet(s -> s == null ? clock.instant() : s);
    return Duration.between(since, clock.instant()).toMillis() / 1000.0;
  }

  private void recordStartup(Pod pod, Instant ready) {
    Instant created = Instant.parse(pod.getMetadata().getCreationTimestamp());
    startup.record(Duration.between(created, ready).isNegative() ? Duration.ZERO : Duration.between(created, ready));
  }

  /** When the pod's Ready condition turned True; empty while it is not Ready. */
  static Optional<Instant> readySince(Pod pod) {
    if (pod == null || pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return pod.getStatus().getConditions().stream()
        .filter(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()) && c.getLastTransitionTime() != null)
        .map(PodCondition::getLastTransitionTime).map(Instant::parse).findFirst();
  }

  /** Sets the NodePool gauges from the cache; nothing while it is not synced (the last values stay). */
  @Override
  public void refresh() {
    if (!cache.synced()) {
      return;
    }
    List<LabelledGauge.Row> used = new ArrayList<>();
    List<LabelledGauge.Row> limits = new ArrayList<>();
    for (NodePool pool : cache.nodePools()) {
      String name = pool.getMetadata().getName();
      if (pool.getStatus() != null) {
        rows(pool.getStatus().resources(), name, used);
      }
      if (pool.getSpec() != null) {
        rows(pool.getSpec().limitsOrEmpty(), name, limits);
      }
    }
    usage.set(used);
    limit.set(limits);
  }

  private static void rows(Map<String, Quantity> quantities, String nodePool, List<LabelledGauge.Row> into) {
    if (quantities != null) {
      quantities.forEach((resource, quantity) ->
          into.add(new LabelledGauge.Row(List.of(NodeLabels.snake(resource), nodePool), quantity.getNumericalAmount().doubleValue())));
    }
  }

  @Override
  public void close() {
    cache.removePodHandler(podHandler);
  }
}
