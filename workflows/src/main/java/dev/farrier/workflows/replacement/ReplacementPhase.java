package dev.farrier.workflows.replacement;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/**
 * Where a replacement stands. Its {@link #label()} is what the {@code FarrierPhase} search attribute, the
 * {@code progress} query and the CLI show (and what histories carry).
 */
public enum ReplacementPhase {
  PENDING("Pending"),
  TAINTING("Tainting"),
  LAUNCHING("Launching"),
  /** The replacement is up; a person must {@code Approve} before the old node is cordoned and drained. */
  AWAITING_APPROVAL("AwaitingApproval"),
  CORDONING("Cordoning"),
  DRAINING("Draining"),
  TERMINATING("Terminating"),
  FINALIZING("Finalizing"),
  DONE("Done"),
  ROLLING_BACK("RollingBack"),
  /** A step failed; the node was given back (if before the point of no return) and the workflow waits for {@code Retry}. */
  AWAITING_RETRY("AwaitingRetry"),
  ABORTED("Aborted"),
  FAILED("Failed");

  private final String label;

  ReplacementPhase(String label) {
    this.label = label;
  }

  @JsonValue
  public String label() {
    return label;
  }

  @JsonCreator
  public static ReplacementPhase of(String label) {
    return Arrays.stream(values()).filter(p -> p.label.equals(label)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown replacement phase " + label));
  }

  /** The workflow has ended (or is about to return): no operator action applies any more. */
  public boolean finished() {
    return this == DONE || this == ABORTED || this == FAILED;
  }

  /** The node's instance is being terminated or is gone: it can no longer be given back. */
  public boolean pastPointOfNoReturn() {
    return this == TERMINATING || this == FINALIZING || this == DONE;
  }

  @Override
  public String toString() {
    return label;
  }
}
