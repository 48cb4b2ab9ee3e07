package dev.farrier.bench;

import java.util.List;

/** Median, spread and tail of a set of measurements. */
record Stats(int count, double median, double min, double max, double p99) {
  static Stats of(List<Double> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no measurements");
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    // Nearest rank: the smallest value with at least 99% of the measurements at or below it.
    double p99 = sorted[(int) Math.ceil(0.99 * n) - 1];
    return new Stats(n, median, sorted[0], sorted[n - 1], p99);
  }
}
