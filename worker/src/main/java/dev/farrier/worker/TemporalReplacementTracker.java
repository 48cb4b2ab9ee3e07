package dev.farrier.worker;

import dev.farrier.activities.disruption.ReplacementTracker;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.ReplacementPhase;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionMetadata;
import io.temporal.client.WorkflowNotFoundException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks Temporal which replacements ({@code disrupt/<nodeclaim>}) run or completed within {@link #JUST_COMPLETED}
 * having replaced their node (phase {@code Done}): the set with one visibility list per planning round, one claim
 * with a describe. A replacement that completed without replacing (aborted, a consolidation found invalid) left its
 * node in service: it holds nothing, or the node would count as "being replaced" and take a unit of its NodePool's
 * budget for {@link #JUST_COMPLETED} after an abort. When it cannot tell: an empty set, and yes for one claim (the
 * safe side).
 */
final class TemporalReplacementTracker implements ReplacementTracker {
  private static final Logger log = LoggerFactory.getLogger(TemporalReplacementTracker.class);
  /** Longer than a planning round's snapshot can lag a replacement's last step (deleting the Node and claim). */
  static final Duration JUST_COMPLETED = Duration.ofMinutes(2);
  static final String WORKFLOW_TYPE = NodeReplacementWorkflow.class.getSimpleName();

  private final WorkflowClient client;
  private final String cluster;
  private final Clock clock;

  TemporalReplacementTracker(WorkflowClient client, String cluster) {
    this(client, cluster, Clock.systemUTC());
  }

  TemporalReplacementTracker(WorkflowClient client, String cluster, Clock clock) {
    this.client = client;
    this.cluster = cluster;
    this.clock = clock;
  }

  @Override
  public Set<String> active() {
    String query = "WorkflowType = '" + WORKFLOW_TYPE + "' AND " + FarrierSearchAttributes.CLUSTER.getName() + " = '" + cluster
        + "' AND (ExecutionStatus = 'Running' OR (ExecutionStatus = 'Completed' AND CloseTime > '"
        + clock.instant().minus(JUST_COMPLETED) + "' AND " + FarrierSearchAttributes.PHASE.getName() + " = '"
        + ReplacementPhase.DONE.label() + "'))";
    try {
      return client.listExecutions(query).map(e -> WorkflowIds.nodeClaimOfDisruption(e.getExecution().getWorkflowId()))
          .filter(Objects::nonNull).collect(Collectors.toSet());
    } catch (RuntimeException e) {
      log.warn("cannot list replacements, counting the tainted nodes only: {}", e.toString());
      return Set.of();
    }
  }

  @Override
  public boolean active(String nodeClaim) {
    try {
      WorkflowExecutionMetadata described = client.newUntypedWorkflowStub(WorkflowIds.disruption(nodeClaim)).describe();
      return described.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
          || described.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED && justClosed(described.getCloseTime())
              && ReplacementPhase.DONE.label().equals(described.getTypedSearchAttributes().get(FarrierSearchAttributes.PHASE));
    } catch (WorkflowNotFoundException e) {
      return false;
    } catch (RuntimeException e) {
      log.warn("cannot tell whether the replacement of {} runs, assuming it does: {}", nodeClaim, e.toString());
      return true;
    }
  }

  private boolean justClosed(Instant closeTime) {
    return closeTime != null && closeTime.isAfter(clock.instant().minus(JUST_COMPLETED));
  }
}
