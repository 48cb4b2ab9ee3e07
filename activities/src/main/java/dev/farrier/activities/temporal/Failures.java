package dev.farrier.activities.temporal;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.kube.ObjectNotFoundException;
import dev.farrier.workflows.FailureTypes;
import io.temporal.failure.ApplicationFailure;

/**
 * Turns the adapters' typed errors into Temporal failures with stable types, so workflows switch on
 * {@code getType()}: permanent ones are non-retryable, transient ones retry under the activity's policy.
 */
public final class Failures {
  private Failures() {}

  public static ApplicationFailure of(CloudProviderException e) {
    return e.kind().retryable
        ? ApplicationFailure.newFailureWithCause(e.getMessage(), e.kind().failureType, e)
        : ApplicationFailure.newNonRetryableFailureWithCause(e.getMessage(), e.kind().failureType, e);
  }

  public static ApplicationFailure of(ObjectNotFoundException e) {
    return ApplicationFailure.newNonRetryableFailureWithCause(e.getMessage(), ObjectNotFoundException.FAILURE_TYPE, e);
  }

  public static ApplicationFailure nodeClassNotResolved(String message) {
    return ApplicationFailure.newFailure(message, FailureTypes.NODE_CLASS_NOT_RESOLVED);
  }

  public static ApplicationFailure nodeClassNotReady(String message) {
    return ApplicationFailure.newNonRetryableFailure(message, FailureTypes.NODE_CLASS_NOT_READY);
  }
}
