package dev.farrier.model;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads Kubernetes/Go duration strings such as {@code 720h}, {@code 1h30m}, {@code 90s}, {@code 1.5h}. */
public final class GoDurations {
  private GoDurations() {}

  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|h|m|s)");

  /** Milliseconds, or null for {@code Never}, null, blank or text that is not a duration. */
  public static Long toMillis(String text) {
    if (text == null || text.isBlank() || text.equalsIgnoreCase("Never")) {
      return null;
    }
    Matcher m = PART.matcher(text.trim());
    double millis = 0;
    int end = 0;
    while (m.find()) {
      if (m.start() != end) {
        return null;
      }
      double n = Double.parseDouble(m.group(1));
      millis += switch (m.group(2)) {
        case "h" -> n * 3_600_000;
        case "m" -> n * 60_000;
        case "s" -> n * 1_000;
        default -> n;
      };
      end = m.end();
    }
    return end == text.trim().length() && end > 0 ? (long) millis : null;
  }
}
