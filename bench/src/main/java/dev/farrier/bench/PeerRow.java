package dev.farrier.bench;

/**
 * One size of the side-by-side run: Karpenter's benchmark result and its priced plan, and Farrier's measurement of
 * the same pods on the same catalogue, taken right after Karpenter's.
 *
 * @param karpenter     what Karpenter's benchmark printed (one cold {@code Solve})
 * @param karpenterPlan Karpenter's plan of the same pods in its priced run (another process, so possibly a few nodes
 *                      off the benchmark's: pods of equal requests are ordered by creation time, then random UID)
 * @param karpenterLoad the 1 minute load average when Karpenter's benchmark started and ended
 * @param farrier       Farrier's cold plan and warm runs (the median of several) of those pods
 */
record PeerRow(int pods, KarpenterBenchOutput karpenter, KarpenterPlan karpenterPlan, LoadAverage.Span karpenterLoad,
    FarrierRun farrier) {
  /** Prices are sums of the same per-type doubles in different orders: equal within this share counts as equal. */
  static final double PRICE_TOLERANCE = 1e-9;

  /** How many times Karpenter's pods per second Farrier's are (Farrier warm). */
  double speedRatio() {
    return farrier.warm().podsPerSecond() / karpenter.podsPerSecond();
  }

  /** The same for Farrier's one cold plan: like for like with Karpenter's one cold {@code Solve}. */
  double coldSpeedRatio() {
    return farrier.coldPodsPerSecond() / karpenter.podsPerSecond();
  }

  /** Farrier's plan price over Karpenter's, for the same pods on the same catalogue. */
  double priceRatio() {
    return farrier.warm().price() / karpenterPlan.pricePerHour();
  }

  boolean priceNotHigher() {
    return farrier.warm().price() <= karpenterPlan.pricePerHour() * (1 + PRICE_TOLERANCE);
  }
}
