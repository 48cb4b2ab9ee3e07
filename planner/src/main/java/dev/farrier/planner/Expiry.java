package dev.farrier.planner;

import dev.farrier.model.GoDurations;
import java.time.Instant;

/** Whether a NodeClaim has outlived its {@code expireAfter} (the claim's own, else its NodePool's; Never or unset: never). */
final class Expiry {
  private Expiry() {}

  /** What makes the claim expired at {@code nowMillis}, e.g. {@code older than expireAfter 24h (created at ...)}, or null. */
  static String of(NodeClaimView claim, NodePoolView pool, long nowMillis) {
    String text = claim.expireAfter() != null ? claim.expireAfter() : pool.expireAfter();
    Long after = GoDurations.toMillis(text);
    // Age compared with the duration, not creation plus duration: an expireAfter of centuries must not wrap to the past.
    if (after == null || nowMillis - claim.createdAtMillis() < after) {
      return null;
    }
    return "older than expireAfter " + text + " (created at " + Instant.ofEpochMilli(claim.createdAtMillis()) + ")";
  }
}
