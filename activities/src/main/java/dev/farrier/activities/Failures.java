package dev.farrier.activities;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.kube.ObjectNotFoundException;
import dev.farrier.workflows.FailureTypes;
import io.temporal.failure.ApplicationFailure;

/**
 * Turns the adapters' typed errors into Temporal failures with stable types, so workflows switch on
 * {@code getType()}: permanent ones are non-retryable, transient ones retry under the activity's policy.
 */
final class Failures {
  private Failures() {}

  static ApplicationFailure of(CloudProviderException e) {
    return e.kind().retryable
        ? ApplicationFailure.newFailureWithCause(e.getMessage(), e.kind().failureType, e)
        : ApplicationFailure.newNonRetryableFailureWithCause(e.getMessage(), e.kind().failureType, e);
  }

  static ApplicationFailure of(ObjectNotFoundException e) {
    return ApplicationFailure.newNonRetryableFailureWithCause(e.getMessage(), ObjectNotFoundException.FAILURE_TYPE, e);
  }

  static ApplicationFailure nodeClassNotResolved(String message) {
    return ApplicationFailure.newFailure(message, FailureTypes.NODE_CLASS_NOT_RESOLVED);
  }

  static ApplicationFailure nodeClassNotReady(String message) {
    return ApplicationFailure.newNonRetryableFailure(message, FailureTypes.NODE_CLASS_NOT_READY);
  }
}
