package dev.farrier.planner;

/**
 * Empty-node consolidation, as Karpenter v1's emptiness method: a node with no pod that would need a home elsewhere
 * (DaemonSet and mirror pods do not count) is deleted, without a replacement, once its NodePool's
 * {@code consolidateAfter} has passed ({@link ConsolidationTiming}), under the NodePool's budgets for {@code Empty}.
 * Every consolidation policy ({@code WhenEmpty}, {@code WhenEmptyOrUnderutilized}, {@code Balanced}) allows it, unscored:
 * Karpenter deletes empty nodes under every policy. A node that holds room for
 * pods still on their way (it was launched for them, or it replaces a node still being drained) is not empty in any
 * sense that matters and is left alone, as Karpenter leaves a nominated node.
 *
 * <p>Pure: whether the budget has room, do-not-disrupt and freezes are the planner's, as for every voluntary method.
 *
 * @param candidate whether the node should be deleted as empty
 * @param detail    why, or why not (e.g. {@code not empty: 2 pods would need a new home})
 */
record Emptiness(boolean candidate, String detail) {
  /** Upstream's emptiness and consolidation skip a static NodePool's nodes: its size is its {@code replicas}. */
  static final String STATIC = "static NodePool (spec.replicas): never consolidated, its size is its replicas";

  static Emptiness of(NodeClaimView claim, NodePoolView pool, long nowMillis) {
    if (pool.isStatic()) {
      return new Emptiness(false, STATIC);
    }
    String policy = pool.consolidationPolicy();
    if (!NodePoolView.WHEN_EMPTY.equals(policy) && !pool.consolidatesUnderutilized()) {
      return new Emptiness(false, "consolidationPolicy " + policy + " is not one Farrier knows: not consolidated");
    }
    ConsolidationTiming timing = ConsolidationTiming.of(claim, pool, nowMillis);
    if (ConsolidationTiming.DISABLED.equals(timing.reason())) {
      return new Emptiness(false, timing.detail());
    }
    int pods = claim.pods().reschedulable();
    if (pods > 0) {
      return new Emptiness(false, "not empty: " + pods + (pods == 1 ? " pod" : " pods") + " would need a new home");
    }
    if (claim.nominated() != null) {
      return new Emptiness(false, "empty but nominated: " + claim.nominated());
    }
    if (!timing.consolidatable()) {
      return new Emptiness(false, "empty but " + timing.detail());
    }
    return new Emptiness(true, "no pods to reschedule and " + timing.detail());
  }
}
