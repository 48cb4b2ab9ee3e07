package dev.farrier.starter;

import dev.farrier.workflows.FarrierSearchAttributes;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowExecutionMetadata;
import io.temporal.common.SearchAttributes;
import java.time.Instant;

/**
 * One replacement as {@code farrier list} shows it, read from the listing's search attributes (no query to the
 * workflow), except {@code blockedForSeconds}, which only the workflow knows.
 *
 * @param status            the execution's status: Running, Completed, Failed, Canceled, Terminated, TimedOut
 * @param blocker           the FarrierBlocker search attribute: what blocks it now, or null
 * @param blockedForSeconds how long that has held, when asked and known
 */
record ReplacementRow(String workflowId, String nodeClaim, String node, String nodePool, String reason, String phase,
    String status, String blocker, Long blockedForSeconds, String startTime) {
  private static final String ID_PREFIX = "disrupt/";

  static ReplacementRow of(WorkflowExecutionMetadata execution) {
    return of(execution.getExecution().getWorkflowId(), execution.getTypedSearchAttributes(), execution.getStatus(),
        execution.getStartTime());
  }

  static ReplacementRow of(String workflowId, SearchAttributes attributes, WorkflowExecutionStatus status, Instant start) {
    String nodeClaim = attributes.get(FarrierSearchAttributes.NODE_CLAIM);
    if (nodeClaim == null && workflowId.startsWith(ID_PREFIX)) {
      // Replacements started before FarrierNodeClaim existed: the id names the claim.
      nodeClaim = workflowId.substring(ID_PREFIX.length());
    }
    return new ReplacementRow(workflowId, nodeClaim, attributes.get(FarrierSearchAttributes.NODE),
        attributes.get(FarrierSearchAttributes.NODE_POOL), attributes.get(FarrierSearchAttributes.REASON),
        attributes.get(FarrierSearchAttributes.PHASE), ExecutionStatuses.label(status), attributes.get(FarrierSearchAttributes.BLOCKER),
        null, start == null ? null : start.toString());
  }

  boolean running() {
    return ExecutionStatuses.RUNNING.equals(status);
  }

  ReplacementRow withBlockedForSeconds(Long seconds) {
    return new ReplacementRow(workflowId, nodeClaim, node, nodePool, reason, phase, status, blocker, seconds, startTime);
  }
}
