package dev.farrier.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The machine's load average, which the figures of a shared machine must be read with. */
final class LoadAverage {
  private LoadAverage() {}

  /** The 1, 5 and 15 minute averages, e.g. {@code 2.31 3.05 4.40}. */
  static String now() {
    String[] fields = fields();
    return fields.length < 3 ? "unknown (no /proc/loadavg)" : fields[0] + " " + fields[1] + " " + fields[2];
  }

  /** The 1 minute average, NaN where the system does not tell. */
  static double oneMinute() {
    String[] fields = fields();
    return fields.length < 1 ? Double.NaN : Double.parseDouble(fields[0]);
  }

  private static String[] fields() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
    } catch (IOException e) {
      return new String[0];
    }
  }

  /** The 1 minute load average when a measurement started and when it ended. */
  record Span(double start, double end) {
    /** {@code "12.05 13.86"}, as tools/bench-peer.sh writes it around a Karpenter run. */
    static Span parse(String text) {
      String[] f = text.strip().split("\\s+");
      if (f.length != 2) {
        throw new IllegalArgumentException("not a load span (start end): " + text);
      }
      return new Span(Double.parseDouble(f[0]), Double.parseDouble(f[1]));
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%.1f-%.1f", start, end);
    }
  }
}
