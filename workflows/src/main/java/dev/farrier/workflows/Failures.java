package dev.farrier.workflows;

import io.temporal.api.enums.v1.RetryState;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TimeoutFailure;

/** Turns the nested failures Temporal hands a workflow into a stable type and one line a person can read. */
public final class Failures {
  private Failures() {}

  /** The first {@link ApplicationFailure}'s type in the cause chain, "Timeout", "Canceled", or the class name. */
  public static String type(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof ApplicationFailure app) {
        return app.getType();
      }
      if (t instanceof TimeoutFailure) {
        return "Timeout";
      }
      if (t instanceof CanceledFailure) {
        return "Canceled";
      }
    }
    return failure.getClass().getSimpleName();
  }

  /** The first {@link ApplicationFailure}'s own message, or what timed out, or the outermost message. */
  public static String reason(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof ApplicationFailure app) {
        String message = app.getOriginalMessage();
        // A workflow's own failure message already names the activity failure type it carries.
        return message.contains(app.getType()) ? message : app.getType() + ": " + message;
      }
      if (t instanceof TimeoutFailure timeout) {
        return "timed out (" + timeout.getTimeoutType().name().replace("TIMEOUT_TYPE_", "").toLowerCase() + ")";
      }
      if (t instanceof CanceledFailure) {
        return "canceled";
      }
    }
    return failure.getMessage();
  }

  /** True when an activity gave up because its ScheduleToClose bound ran out (the last attempt's error is the cause). */
  public static boolean outOfTime(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof ActivityFailure activity && activity.getRetryState() == RetryState.RETRY_STATE_TIMEOUT) {
        return true;
      }
      if (t instanceof TimeoutFailure) {
        return true;
      }
    }
    return false;
  }
}
