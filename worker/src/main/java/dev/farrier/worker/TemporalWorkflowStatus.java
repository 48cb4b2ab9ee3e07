package dev.farrier.worker;

import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.reconciler.ClusterReconcilerWorkflow;
import dev.farrier.workflows.reconciler.Freeze;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the rollout activities ask Temporal. Whether a workflow runs now, by a describe of its id: what tells a NodePool's stale {@code farrier.dev/rollout}
 * (its rollout ended without giving it back, e.g. terminated by a person) from a live one. When Temporal cannot
 * answer: yes (the safe side: a second rollout is refused rather than let in).
 */
final class TemporalWorkflowStatus {
  private static final Logger log = LoggerFactory.getLogger(TemporalWorkflowStatus.class);

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
