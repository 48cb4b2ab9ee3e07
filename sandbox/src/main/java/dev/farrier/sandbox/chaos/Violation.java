package dev.farrier.sandbox.chaos;

import java.time.Instant;

/** A broken promise: which invariant, when it was seen, about what (a NodeClaim, an instance, a pod) and the detail. */
public record Violation(Instant at, Invariant invariant, String subject, String detail) {
  /** The promises the monitor checks, numbered as in issue 43 and named as docs/SAFETY.md words them. */
  public enum Invariant {
    PDB_FLOOR("no PodDisruptionBudget is ever taken below its floor by a voluntary disruption"),
    BUDGET("no NodePool ever has more nodes disrupting at once than its budget allows"),
    ONE_INSTANCE_PER_CLAIM("never two live instances for one NodeClaim"),
    ONE_REPLACEMENT_PER_NODE("never a replacement started twice for one node"),
    NO_ORPHAN_PAST_GRACE("no instance of Farrier's left without a NodeClaim once the garbage collection grace has passed"),
    FOREIGN_UNTOUCHED("no instance Farrier did not launch is stopped or terminated"),
    PROTECTED_POD("no do-not-disrupt pod and no DaemonSet pod evicted by a voluntary disruption"),
    RUNAWAY("no runaway scale-up: NodeClaims launching never exceed what the pending pods and replacements need by more than a margin"),
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
