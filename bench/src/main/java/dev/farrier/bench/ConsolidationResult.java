package dev.farrier.bench;

/**
 * One consolidation case (mix and size): the naive fleet, the fleet after consolidation, and the bounds.
 *
 * @param naiveType    the one type of the naive placement ({@link NaivePacking})
 * @param packMillis   time to make the naive fleet
 * @param wallMillis   time of the whole consolidation (every round's planning and applying)
 * @param after        the fleet's composition after consolidation
 */
record ConsolidationResult(
    Workloads.Mix mix, int pods, String naiveType, int nodesBefore, double priceBefore, int nodesAfter, double priceAfter,
    PriceBound bound, PodClassBound classBound, ConsolidationRounds.Outcome outcome, double packMillis, double wallMillis,
    String after) {

  double ratioToBound() {
    return bound.perHour() == 0 ? Double.NaN : priceAfter / bound.perHour();
  }

  double ratioToClassBound() {
    return classBound.perHour() == 0 ? Double.NaN : priceAfter / classBound.perHour();
  }
}
