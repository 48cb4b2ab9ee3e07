package dev.farrier.starter;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.failure.ApplicationFailure;
import java.util.function.Supplier;

/** A call on one workflow, with Temporal's answers turned into the CLI's exit codes and messages. */
final class WorkflowCalls {
  private WorkflowCalls() {}

  /**
   * Runs {@code call} on the workflow {@code workflowId} (a "{@code noun}" to the user). A refused Update becomes
   * {@link ExitCodes#REFUSED} with the validator's own message; a workflow the server does not know (or that has ended,
   * for an Update) becomes {@link ExitCodes#NOT_FOUND}; anything else is left to the caller.
   */
  static <T> T on(WorkflowClient client, String noun, String workflowId, Supplier<T> call) {
    try {
      return call.get();
    } catch (WorkflowException e) {
      if (e instanceof WorkflowUpdateException && e.getCause() instanceof ApplicationFailure refusal) {
        throw new CliException(ExitCodes.REFUSED, "refused: " + refusal.getOriginalMessage());
      }
      String missing = notFound(e);
      if (missing != null) {
        String ended = endedAs(client, workflowId);
        throw new CliException(ExitCodes.NOT_FOUND, ended != null
            ? "no running " + noun + " " + workflowId + " (it has ended: " + ended + ")"
            : "no " + noun + " " + workflowId + " (" + missing + ")");
      }
      throw e;
    }
  }

  /**
   * How the workflow ended, or null when it runs or cannot be described. An Update to an ended workflow is answered
   * "not found" (the test server even names the update, not the workflow): saying it ended is clearer.
   */
  private static String endedAs(WorkflowClient client, String workflowId) {
    try {
      WorkflowExecutionStatus status = client.newUntypedWorkflowStub(workflowId).describe().getStatus();
      return status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING ? null : ExecutionStatuses.label(status);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The server's words when it says the workflow does not exist (or no longer runs), else null. */
  static String notFound(Throwable failure) {
    boolean notFoundException = false;
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof StatusRuntimeException s && s.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return s.getStatus().getDescription() == null ? "not found" : s.getStatus().getDescription();
      }
      notFoundException |= t instanceof WorkflowNotFoundException;
    }
    return notFoundException ? "not found" : null;
  }

  /** One line for a failure nobody expected: what Temporal at {@code address} answered, else the message. */
  static String describe(Throwable failure, String address) {
    String status = grpcStatus(failure);
    if (status != null) {
      return "Temporal at " + address + ": " + status;
    }
    return failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
  }

  /** The gRPC status in the failure's causes, as "UNAVAILABLE: io exception", or null. */
  static String grpcStatus(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof StatusRuntimeException s) {
        return s.getStatus().getCode() + (s.getStatus().getDescription() == null ? "" : ": " + s.getStatus().getDescription());
      }
    }
    return null;
  }
}
