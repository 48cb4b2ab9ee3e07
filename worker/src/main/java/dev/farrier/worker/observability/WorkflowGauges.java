package dev.farrier.worker.observability;

import dev.farrier.activities.metrics.BoundedRefresh;
import dev.farrier.activities.metrics.LabelledGauge;
import dev.farrier.activities.metrics.MetricCatalog;
import dev.farrier.activities.metrics.MetricsRefresh;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.upgrade.NodePoolUpgradeWorkflow;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionMetadata;
import io.temporal.common.SearchAttributeKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Farrier's own gauges from Temporal's visibility: the running replacements by phase, NodePool and reason, the
 * running fleet upgrades by phase and NodePool, and those of both something holds up (their {@code FarrierBlocker}
 * search attribute is set). One list of this cluster's running workflows per scrape, waited for at most
 * {@link #WAIT} ({@link BoundedRefresh}: a slow or absent Temporal leaves the last values, never a scrape that times
 * out); every worker answers the same, so aggregate replicas with {@code max}.
 */
public final class WorkflowGauges implements MetricsRefresh, AutoCloseable {
  static final Duration WAIT = Duration.ofSeconds(2);
  /** The workflow types, as Temporal names them: their interfaces' simple names. */
  static final String REPLACEMENT = NodeReplacementWorkflow.class.getSimpleName();
  static final String UPGRADE = NodePoolUpgradeWorkflow.class.getSimpleName();

  private final WorkflowClient client;
  private final String query;
  private final LabelledGauge replacements;
  private final LabelledGauge rollouts;
  private final LabelledGauge blocked;
  private final BoundedRefresh bounded;

  public WorkflowGauges(WorkflowClient client, String cluster, MeterRegistry meters) {
    this.client = client;
    this.query = FarrierSearchAttributes.runningOfCluster(cluster, List.of(REPLACEMENT, UPGRADE));
    this.replacements = MetricCatalog.REPLACEMENTS.labelledGauge(meters);
    this.rollouts = MetricCatalog.ROLLOUTS.labelledGauge(meters);
    this.blocked = MetricCatalog.BLOCKED.labelledGauge(meters);
    this.bounded = new BoundedRefresh("farrier-workflow-gauges", this::list, WAIT);
  }

  @Override
  public void refresh() {
    bounded.refresh();
  }

  @Override
  public void close() {
    bounded.close();
  }

  private void list() {
    List<WorkflowExecutionMetadata> running = client.listExecutions(query).toList();
    replacements.set(count(running.stream().filter(e -> REPLACEMENT.equals(e.getWorkflowType())).toList(),
        e -> List.of(attribute(e, FarrierSearchAttributes.PHASE), attribute(e, FarrierSearchAttributes.NODE_POOL),
            attribute(e, FarrierSearchAttributes.REASON))));
    rollouts.set(count(running.stream().filter(e -> UPGRADE.equals(e.getWorkflowType())).toList(),
        e -> List.of(attribute(e, FarrierSearchAttributes.PHASE), attribute(e, FarrierSearchAttributes.NODE_POOL))));
    blocked.set(count(running.stream().filter(e -> !attribute(e, FarrierSearchAttributes.BLOCKER).isEmpty()).toList(),
        e -> List.of(e.getWorkflowType(), attribute(e, FarrierSearchAttributes.NODE_POOL))));
  }

  private static List<LabelledGauge.Row> count(List<WorkflowExecutionMetadata> executions,
      Function<WorkflowExecutionMetadata, List<String>> labels) {
    Map<List<String>, Long> counts = executions.stream().collect(Collectors.groupingBy(labels, Collectors.counting()));
    return counts.entrySet().stream().map(e -> new LabelledGauge.Row(e.getKey(), e.getValue())).toList();
  }

  private static String attribute(WorkflowExecutionMetadata execution, SearchAttributeKey<String> key) {
    String value = execution.getTypedSearchAttributes().get(key);
    return value == null ? "" : value;
  }
}
