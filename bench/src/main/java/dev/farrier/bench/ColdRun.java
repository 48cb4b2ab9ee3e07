package dev.farrier.bench;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Farrier planning Karpenter's pods once in a fresh JVM ({@link ColdPlan}), as one line of text between processes.
 *
 * @param millis the one plan's time, class loading and interpreter included
 */
record ColdRun(int pods, double millis, int nodes, double pricePerHour) {
  private static final Pattern LINE = Pattern.compile(
      "cold plan: (\\d+) pods in ([0-9.]+) ms, (\\d+) nodes, \\$([0-9.]+)/h");

  String format() {
    return String.format(Locale.ROOT, "cold plan: %d pods in %.3f ms, %d nodes, $%.6f/h", pods, millis, nodes, pricePerHour);
  }

  static ColdRun parse(String text) {
    Matcher m = LINE.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException("not a cold plan line: " + text);
    }
    return new ColdRun(Integer.parseInt(m.group(1)), Double.parseDouble(m.group(2)), Integer.parseInt(m.group(3)),
        Double.parseDouble(m.group(4)));
  }

  double podsPerSecond() {
    return pods / (millis / 1000);
  }
}
