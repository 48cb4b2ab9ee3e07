package dev.farrier.sandbox.bench;

import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.History;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionMetadata;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Closed workflow runs of one type read back from Temporal after a benchmark: when each ran, what its history cost, and
 * what its child workflows (a replacement's launch) cost.
 */
public final class WorkflowRuns {
  private WorkflowRuns() {}

  /** One closed run: its ids, status, interval, and its own and its children's history costs. */
  public record Run(String workflowId, String runId, String status, Intervals.Interval interval, HistoryCost cost,
      List<HistoryCost> children) {}

  /** Every run of {@code workflowType} started at or after {@code from} and closed by now, oldest first. */
  public static List<Run> closedSince(WorkflowClient temporal, String workflowType, Instant from) {
    String query = "WorkflowType = '" + workflowType + "' AND StartTime >= '" + from + "' AND ExecutionStatus != 'Running'";
    List<Run> runs = new ArrayList<>();
    for (WorkflowExecutionMetadata meta : temporal.listExecutions(query).toList()) {
      var execution = meta.getExecution();
      History history = temporal.fetchHistory(execution.getWorkflowId(), execution.getRunId()).getHistory();
      List<HistoryCost> children = new ArrayList<>();
      for (HistoryEvent event : history.getEventsList()) {
        if (event.getEventType() == EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED) {
          var child = event.getChildWorkflowExecutionStartedEventAttributes().getWorkflowExecution();
          children.add(HistoryCost.of(temporal.fetchHistory(child.getWorkflowId(), child.getRunId()).getHistory()));
        }
      }
      Instant closed = Optional.ofNullable(meta.getCloseTime()).orElseThrow();
      runs.add(new Run(execution.getWorkflowId(), execution.getRunId(), meta.getStatus().name(),
          new Intervals.Interval(meta.getStartTime().toEpochMilli(), closed.toEpochMilli()), HistoryCost.of(history), children));
    }
    runs.sort(java.util.Comparator.comparingLong(r -> r.interval().start()));
    return runs;
  }

  /** How many runs of {@code workflowType} started at or after {@code from} are still running. */
  public static long runningSince(WorkflowClient temporal, String workflowType, Instant from) {
    return temporal.countWorkflows("WorkflowType = '" + workflowType + "' AND StartTime >= '" + from
        + "' AND ExecutionStatus = 'Running'").getCount();
  }
}
