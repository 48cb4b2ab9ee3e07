package dev.farrier.sandbox.bench;

import java.util.Arrays;
import java.util.Collection;

/**
 * The summary every benchmark table gives of a set of measurements: count, median, 99th percentile and maximum. The
 * percentile is the nearest rank (the smallest measurement with at least 99% of them at or below it), so it is always
 * one of the measurements and never interpolated past the data.
 */
public record Percentiles(int count, double median, double p99, double max) {
  public static Percentiles of(Collection<? extends Number> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no measurements");
    }
    double[] sorted = values.stream().mapToDouble(Number::doubleValue).toArray();
    Arrays.sort(sorted);
    int n = sorted.length;
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    return new Percentiles(n, median, nearestRank(sorted, 0.99), sorted[n - 1]);
  }

  /** The nearest-rank {@code quantile} (0 to 1] of ascending {@code sorted}. */
  static double nearestRank(double[] sorted, double quantile) {
    int rank = (int) Math.ceil(quantile * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }
}
