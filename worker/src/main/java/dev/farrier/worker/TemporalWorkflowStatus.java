package dev.farrier.worker;

import dev.farrier.workflows.Failures;
import dev.farrier.workflows.activities.ClosedReplacement;
import dev.farrier.model.ReplacementResult;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.reconciler.ClusterReconcilerWorkflow;
import dev.farrier.model.Freeze;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the rollout activities ask Temporal: how a replacement carried across a rollout's continue-as-new ended
 * ({@link #closedReplacement}), the change freeze ({@link #freezeOf}), and whether a workflow runs now, by a describe of its id: what tells a NodePool's stale {@code farrier.dev/rollout}
 * (its rollout ended without giving it back, e.g. terminated by a person) from a live one. When Temporal cannot
 * answer: yes (the safe side: a second rollout is refused rather than let in).
 */
final class TemporalWorkflowStatus {
  private static final Logger log = LoggerFactory.getLogger(TemporalWorkflowStatus.class);

  /** The longest one call to Temporal may take here: under the heartbeat timeout of the activities that call. */
  static final Duration CALL_DEADLINE = Duration.ofSeconds(3);

  private final WorkflowClient client;

  TemporalWorkflowStatus(WorkflowClient client) {
    this.client = client;
  }

  boolean running(String workflowId) {
    try {
      return client.newUntypedWorkflowStub(workflowId).describe().getStatus()
          == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
    } catch (WorkflowNotFoundException e) {
      return false;
    } catch (RuntimeException e) {
      log.warn("cannot tell whether {} runs, assuming it does: {}", workflowId, e.toString());
      return true;
    }
  }

  /**
   * How the replacement of {@code nodeClaim} ({@code disrupt/<nodeclaim>}, its latest run) ended, once it has: its
   * result, or why not (failed, terminated, timed out, not found); empty while it runs. For a rolling rollout's slots
   * carried across continue-as-new. Each call to Temporal is bounded by {@link #CALL_DEADLINE}, under the activity's
   * heartbeat timeout; a call that does not answer in time throws (the activity is retried).
   */
  Optional<ClosedReplacement> closedReplacement(String nodeClaim) {
    String id = WorkflowIds.disruption(nodeClaim);
    WorkflowExecutionStatus status;
    try {
      status = client.getWorkflowServiceStubs().blockingStub()
          .withDeadlineAfter(CALL_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
          .describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
              .setNamespace(client.getOptions().getNamespace())
              .setExecution(WorkflowExecution.newBuilder().setWorkflowId(id))
              .build())
          .getWorkflowExecutionInfo().getStatus();
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return Optional.of(ClosedReplacement.failed(nodeClaim, id + " not found"));
      }
      throw e;
    }
    if (status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
        || status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW) {
      return Optional.empty();
    }
    try {
      return Optional.of(ClosedReplacement.completed(nodeClaim, client.newUntypedWorkflowStub(id)
          .getResult(CALL_DEADLINE.toMillis(), TimeUnit.MILLISECONDS, ReplacementResult.class)));
    } catch (WorkflowFailedException e) {
      return Optional.of(ClosedReplacement.failed(nodeClaim, id + " ended "
          + status.name().replace("WORKFLOW_EXECUTION_STATUS_", "").toLowerCase(Locale.ROOT) + ": "
          + Failures.reason(e.getCause() == null ? e : e.getCause())));
    } catch (TimeoutException e) {
      throw new IllegalStateException("no result of " + id + " within " + CALL_DEADLINE.toSeconds() + "s", e);
    }
  }

  /**
   * The change freeze holding the cluster or one of the given NodePools, from the query of {@code reconciler/<cluster>};
   * null when none does or the reconciler does not exist. A query that fails throws (the activity is retried, and the
   * rollout waits: the safe side).
   */
  java.util.function.Function<java.util.List<String>, String> freezeOf(String cluster) {
    return nodePools -> {
      try {
        var status = client.newWorkflowStub(ClusterReconcilerWorkflow.class, WorkflowIds.reconciler(cluster)).status();
        return Freeze.ofAny(Freeze.byNodePool(status.freezes() == null ? java.util.List.of() : status.freezes()), nodePools);
      } catch (WorkflowNotFoundException e) {
        return null;
      }
    };
  }
}
