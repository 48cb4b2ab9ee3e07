package dev.farrier.planner;

import dev.farrier.model.GoDurations;
import java.time.Instant;

/**
 * Whether a NodeClaim may be consolidated yet, as Karpenter v1's {@code Consolidatable} condition: its NodePool's
 * {@code consolidateAfter} has passed since the last pod event on the node (a pod bound to it or gone from it), or
 * since it was initialized when no pod event is known. {@code Never} (or a value that is not a duration) turns
 * consolidation off. Only timing: whether the node is empty, would fit elsewhere, or is held by a budget is each
 * method's own decision ({@link Emptiness}).
 *
 * @param consolidatable   consolidateAfter has passed
 * @param reason           the condition reason: {@code Consolidatable}, {@code ConsolidateAfterNotReached},
 *                         {@code ConsolidationDisabled} or {@code NotInitialized}
 * @param detail           what was found, e.g. {@code consolidateAfter 30s not reached: last pod event at ..., consolidatable from ...}
 */
record ConsolidationTiming(boolean consolidatable, String reason, String detail) {
  static final String CONSOLIDATABLE = "Consolidatable";
  static final String NOT_REACHED = "ConsolidateAfterNotReached";
  static final String DISABLED = "ConsolidationDisabled";
  static final String NOT_INITIALIZED = "NotInitialized";

  static ConsolidationTiming of(NodeClaimView claim, NodePoolView pool, long nowMillis) {
    Long after = GoDurations.toMillis(pool.consolidateAfter());
    if (after == null || after < 0) {
      return new ConsolidationTiming(false, DISABLED, "consolidateAfter " + pool.consolidateAfter() + ": consolidation is off");
    }
    if (!claim.initialized()) {
      return new ConsolidationTiming(false, NOT_INITIALIZED, "not initialized yet");
    }
    long initialized = claim.initializedAtMillis() != null ? claim.initializedAtMillis() : claim.createdAtMillis();
    boolean podEvent = claim.lastPodEventMillis() != null && claim.lastPodEventMillis() > initialized;
    long since = podEvent ? claim.lastPodEventMillis() : initialized;
    String from = (podEvent ? "last pod event at " : "initialized at ") + Instant.ofEpochMilli(since);
    // Age compared with the duration, never since plus duration: a consolidateAfter of centuries must not wrap around.
    if (nowMillis - since >= after) {
      return new ConsolidationTiming(true, CONSOLIDATABLE, "consolidateAfter " + pool.consolidateAfter() + " passed (" + from + ")");
    }
    long at = after > Long.MAX_VALUE - since ? Long.MAX_VALUE : since + after;
    return new ConsolidationTiming(false, NOT_REACHED, "consolidateAfter " + pool.consolidateAfter() + " not reached: " + from
        + ", consolidatable from " + (at == Long.MAX_VALUE ? "never" : Instant.ofEpochMilli(at).toString()));
  }
}
