package dev.farrier.sandbox.chaos;

import java.time.Instant;

/** A broken promise: which invariant, when it was seen, about what (a NodeClaim, an instance, a pod) and the detail. */
public record Violation(Instant at, Invariant invariant, String subject, String detail) {
  /** The promises the monitor checks, numbered as in issue 43 and named as docs/SAFETY.md words them. */
  public enum Invariant {
    ONE_INSTANCE_PER_CLAIM("never two live instances for one NodeClaim"),
    NO_ORPHAN_PAST_GRACE("no instance of Farrier's left without a NodeClaim once the garbage collection grace has passed"),
    FOREIGN_UNTOUCHED("no instance Farrier did not launch is stopped or terminated"),
    SETTLED("after the last fault every pending pod runs and every replacement and rollout has ended");

    private final String promise;

    Invariant(String promise) {
      this.promise = promise;
    }

    public String promise() {
      return promise;
    }
  }

  @Override
  public String toString() {
    return at + " " + invariant + " " + subject + ": " + detail;
  }
}
