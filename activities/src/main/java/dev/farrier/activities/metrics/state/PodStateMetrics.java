package dev.farrier.activities.metrics.state;

import dev.farrier.activities.kube.ClusterCache;
import dev.farrier.activities.metrics.LabelledGauge;
import dev.farrier.activities.metrics.MetricCatalog;
import dev.farrier.activities.metrics.MetricsRefresh;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code karpenter_pods_state}: a 1 for every pod in the informer cache, labelled as Karpenter labels it (its name,
 * namespace, first owner as a self link, node, whether it is scheduled and Ready, its phase, and its node's NodePool,
 * zone, architecture, capacity type, instance type and whether a NodePool manages it), set at each scrape.
 */
public final class PodStateMetrics implements MetricsRefresh {
  private final ClusterCache cache;
  private final LabelledGauge state;

  public PodStateMetrics(ClusterCache cache, MeterRegistry meters) {
    this.cache = cache;
    this.state = MetricCatalog.PODS_STATE.labelledGauge(meters);
  }

  /** Nothing while the cache is not synced (the last values stay). */
  @Override
  public void refresh() {
    if (!cache.synced()) {
      return;
    }
    List<LabelledGauge.Row> rows = new ArrayList<>();
    Stream.concat(cache.boundPods().stream(), cache.unboundPods().stream())
        .forEach(pod -> rows.add(new LabelledGauge.Row(labels(pod), 1)));
    state.set(rows);
  }

  private List<String> labels(Pod pod) {
    String nodeName = pod.getSpec().getNodeName() == null ? "" : pod.getSpec().getNodeName();
    Map<String, String> node = nodeName.isEmpty() ? Map.of()
        : cache.node(nodeName).map(Node::getMetadata).map(m -> m.getLabels() == null ? Map.<String, String>of() : m.getLabels()).orElse(Map.of());
    String phase = pod.getStatus() == null || pod.getStatus().getPhase() == null ? "" : pod.getStatus().getPhase();
    boolean ready = pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    return List.of(pod.getMetadata().getName(), pod.getMetadata().getNamespace(), owner(pod), nodeName,
        String.valueOf(!nodeName.isEmpty()), node.getOrDefault(WellKnown.NODEPOOL_LABEL, ""), node.getOrDefault(WellKnown.ZONE_LABEL, ""),
        node.getOrDefault("kubernetes.io/arch", ""), node.getOrDefault(WellKnown.CAPACITY_TYPE_LABEL, ""),
        node.getOrDefault("node.kubernetes.io/instance-type", ""), phase, String.valueOf(ready),
        String.valueOf(!node.getOrDefault(WellKnown.NODEPOOL_LABEL, "").isEmpty()));
  }

  /** The first owner as Karpenter writes it: {@code /apis/<apiVersion>/namespaces/<ns>/<kind>s/<name>}. */
  private static String owner(Pod pod) {
    List<OwnerReference> owners = pod.getMetadata().getOwnerReferences();
    if (owners == null || owners.isEmpty()) {
      return "";
    }
    OwnerReference first = owners.getFirst();
    return "/apis/" + first.getApiVersion() + "/namespaces/" + pod.getMetadata().getNamespace() + "/"
        + first.getKind().toLowerCase(Locale.ROOT) + "s/" + first.getName();
  }
}
