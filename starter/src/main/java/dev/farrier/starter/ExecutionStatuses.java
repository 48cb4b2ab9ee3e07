package dev.farrier.starter;

import io.temporal.api.enums.v1.WorkflowExecutionStatus;

/** Execution statuses as the Temporal UI and CLI name them ("TimedOut", not WORKFLOW_EXECUTION_STATUS_TIMED_OUT). */
final class ExecutionStatuses {
  private ExecutionStatuses() {}

  static final String RUNNING = "Running";

  static String label(WorkflowExecutionStatus status) {
    return switch (status) {
      case WORKFLOW_EXECUTION_STATUS_RUNNING -> RUNNING;
      case WORKFLOW_EXECUTION_STATUS_COMPLETED -> "Completed";
      case WORKFLOW_EXECUTION_STATUS_FAILED -> "Failed";
      case WORKFLOW_EXECUTION_STATUS_CANCELED -> "Canceled";
      case WORKFLOW_EXECUTION_STATUS_TERMINATED -> "Terminated";
      case WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW -> "ContinuedAsNew";
      case WORKFLOW_EXECUTION_STATUS_TIMED_OUT -> "TimedOut";
      default -> "Unknown";
    };
  }
}
