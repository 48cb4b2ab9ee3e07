package dev.farrier.worker;

import dev.farrier.activities.ReplacementTracker;
import dev.farrier.workflows.WorkflowIds;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Asks Temporal whether {@code disrupt/<nodeclaim>} is running; when it cannot tell, says yes (the safe side). */
final class TemporalReplacementTracker implements ReplacementTracker {
  private static final Logger log = LoggerFactory.getLogger(TemporalReplacementTracker.class);

  private final WorkflowClient client;

  TemporalReplacementTracker(WorkflowClient client) {
    this.client = client;
  }

  @Override
  public boolean running(String nodeClaim) {
    try {
      return client.newUntypedWorkflowStub(WorkflowIds.disruption(nodeClaim)).describe().getStatus()
          == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
    } catch (WorkflowNotFoundException e) {
      return false;
    } catch (RuntimeException e) {
      log.warn("cannot tell whether the replacement of {} runs, assuming it does: {}", nodeClaim, e.toString());
      return true;
    }
  }
}
