package dev.farrier.workflows.reconciler;

/**
 * A NodeClaim whose last replacement failed: the reconciler does not start another before {@code untilMillis}.
 * Each further failure doubles the wait (1 min, 2 min, ... at most 30 min), so a replacement that cannot succeed
 * (a pod two PDBs cover, a NodePool at its limit) does not churn nodes every planning round.
 */
public record Cooldown(String nodeClaim, int failures, long untilMillis) {
  static final long FIRST_MILLIS = 60_000;
  static final long MAX_MILLIS = 30 * 60_000;

  static Cooldown after(Cooldown previous, String nodeClaim, long now) {
    int failures = previous == null ? 1 : previous.failures() + 1;
    long wait = Math.min(MAX_MILLIS, FIRST_MILLIS << Math.min(failures - 1, 16));
    return new Cooldown(nodeClaim, failures, now + wait);
  }
}
