package dev.farrier.activities.cloud;

import dev.farrier.workflows.FailureTypes;

/** A typed cloud failure; activities turn {@link Kind} into the {@code ApplicationFailure} type of the same name. */
public class CloudProviderException extends RuntimeException {
  public enum Kind {
    /** No offering of the request had capacity; the offering is marked unavailable for a while. Non-retryable. */
    INSUFFICIENT_CAPACITY(FailureTypes.INSUFFICIENT_CAPACITY, false),
    NOT_FOUND(FailureTypes.NOT_FOUND, false),
    /** The instance lacks Farrier's ownership tags for this cluster/claim. Non-retryable: never terminate it. */
    NOT_OWNED(FailureTypes.NOT_OWNED, false),
    THROTTLED(FailureTypes.THROTTLED, true),
    INVALID_REQUEST(FailureTypes.INVALID_REQUEST, false);

    public final String failureType;
    public final boolean retryable;

    Kind(String failureType, boolean retryable) {
      this.failureType = failureType;
      this.retryable = retryable;
    }
  }

  private final Kind kind;

  public CloudProviderException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
