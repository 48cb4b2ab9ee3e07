package dev.farrier.activities.gc;

import java.time.Duration;

/**
 * How cautious garbage collection is.
 *
 * @param grace        how long after its launch an instance or claim is left alone (a launch in flight)
 * @param confirmAfter how long an instance must stay gone, seen on two passes at least this far apart, before its
 *                     NodeClaim is removed
 * @param maxGoneShare the share of the fleet that may look gone (or orphaned) in one pass; above it the pass deletes
 *                     nothing. At least one is always allowed, so a one-node NodePool can lose its node.
 */
public record GcPolicy(Duration grace, Duration confirmAfter, double maxGoneShare) {
  public static final Duration DEFAULT_CONFIRM_AFTER = Duration.ofMinutes(2);
  public static final double DEFAULT_MAX_GONE_SHARE = 0.2;

  public GcPolicy {
    if (grace.isNegative() || confirmAfter.isNegative()) {
      throw new IllegalArgumentException("gc grace and confirm-after must not be negative");
    }
    if (!(maxGoneShare >= 0 && maxGoneShare <= 1)) {
      throw new IllegalArgumentException("gc max-gone-share must be between 0 and 1, not " + maxGoneShare);
    }
  }

  public static GcPolicy withGrace(Duration grace) {
    return new GcPolicy(grace, DEFAULT_CONFIRM_AFTER, DEFAULT_MAX_GONE_SHARE);
  }

  /** How many of {@code fleet} may look gone in one pass: the share, rounded down, and at least one. */
  public int maxGone(int fleet) {
    return Math.max(1, (int) Math.floor(fleet * maxGoneShare));
  }
}
