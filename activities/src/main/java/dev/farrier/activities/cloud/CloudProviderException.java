package dev.farrier.activities.cloud;

/** A typed cloud failure; activities turn {@link Kind} into the {@code ApplicationFailure} type of the same name. */
public class CloudProviderException extends RuntimeException {
  public enum Kind {
    /** No offering of the request had capacity; the offering is marked unavailable for a while. Non-retryable. */
    INSUFFICIENT_CAPACITY("InsufficientCapacity", false),
    NOT_FOUND("NotFound", false),
    /** The instance lacks Farrier's ownership tags for this cluster/claim. Non-retryable: never terminate it. */
    NOT_OWNED("NotOwned", false),
    THROTTLED("Throttled", true),
    INVALID_REQUEST("InvalidRequest", false);

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
