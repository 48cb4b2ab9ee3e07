package dev.farrier.activities.cloud.simulated;

import java.time.Instant;

/**
 * A fault the simulated cloud plays for one EC2 API operation ({@code RunInstances}, {@code TerminateInstances},
 * {@code DescribeInstances}, {@code DescribeInstanceTypes}, or {@code *} for all) until a time.
 *
 * @param delayMillis for {@link Kind#SLOW}: how long each call takes before it answers
 */
public record InjectedFault(String operation, Kind kind, Instant until, long delayMillis) {
  /** What the operation does while the fault is in force. */
  public enum Kind {
    /** Refused as EC2 refuses a caller over its request rate ({@code RequestLimitExceeded}): retryable. */
    THROTTLING,
    /** Fails as an EC2 server error does ({@code InternalError}, HTTP 500): retryable. */
    SERVER_ERROR,
    /** Answers, but only after {@code delayMillis}. */
    SLOW
  }
}
