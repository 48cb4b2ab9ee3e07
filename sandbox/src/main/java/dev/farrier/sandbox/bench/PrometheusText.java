package dev.farrier.sandbox.bench;

/**
 * Reads samples from the Prometheus text exposition format the worker's {@code /metrics} serves (one sample a line:
 * {@code name{labels} value}, comments starting with {@code #}).
 */
final class PrometheusText {
  private PrometheusText() {}

  /** The sum of every sample of {@code metric} whose labels contain {@code labelFragment} (empty: every sample). */
  static long sum(String exposition, String metric, String labelFragment) {
    double total = 0;
    boolean found = false;
    for (String line : exposition.lines().toList()) {
      if (line.startsWith("#") || !(line.startsWith(metric + "{") || line.startsWith(metric + " "))) {
        continue;
      }
      int space = line.lastIndexOf(' ');
      String series = line.substring(0, space);
      if (!series.contains(labelFragment)) {
        continue;
      }
      total += Double.parseDouble(line.substring(space + 1));
      found = true;
    }
    if (!found) {
      throw new IllegalStateException("no sample of " + metric + " with " + labelFragment);
    }
    return Math.round(total);
  }
}
