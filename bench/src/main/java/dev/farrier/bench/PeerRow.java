package dev.farrier.bench;

/**
 * One size of the side-by-side run: Karpenter's benchmark result and its priced plan, and Farrier's measurement of
 * the same pods on the same catalogue.
 *
 * @param karpenter     what Karpenter's benchmark printed (one cold {@code Solve})
 * @param karpenterPlan Karpenter's plan of the same pods in its priced run (another process, so possibly a few nodes
 *                      off the benchmark's: pods of equal requests are ordered by creation time, then random UID)
 * @param farrier       Farrier's scheduling benchmark on those pods (warm: the median of several runs)
 * @param farrierCold   Farrier's one plan of those pods in a fresh JVM, measured as Karpenter measures itself
 */
record PeerRow(int pods, KarpenterBenchOutput karpenter, KarpenterPlan karpenterPlan, CaseResult farrier, ColdRun farrierCold) {
  /** Prices are sums of the same per-type doubles in different orders: equal within this share counts as equal. */
  static final double PRICE_TOLERANCE = 1e-9;

  /** How many times Karpenter's pods per second Farrier's are. */
  double speedRatio() {
    return farrier.podsPerSecond() / karpenter.podsPerSecond();
  }

  /** The same for Farrier's one cold plan: like for like with Karpenter's one cold {@code Solve}. */
  double coldSpeedRatio() {
    return farrierCold.podsPerSecond() / karpenter.podsPerSecond();
  }

  /** Farrier's plan price over Karpenter's, for the same pods on the same catalogue. */
  double priceRatio() {
    return farrier.price() / karpenterPlan.pricePerHour();
  }

  boolean priceNotHigher() {
    return farrier.price() <= karpenterPlan.pricePerHour() * (1 + PRICE_TOLERANCE);
  }
}
