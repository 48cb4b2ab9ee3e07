package dev.farrier.starter;

import dev.farrier.workflows.replacement.Blocker;
import java.time.Instant;

/** How long a replacement has been blocked, from its blocker's first-seen time; the one duration format of the CLI. */
final class BlockedFor {
  private BlockedFor() {}

  /**
   * Whole seconds from {@code blocker.sinceMillis()} to {@code now}, or null when nothing blocks or the blocker's
   * start is unknown (0).
   */
  static Long seconds(Blocker blocker, Instant now) {
    if (blocker == null || blocker.sinceMillis() <= 0) {
      return null;
    }
    return Math.max(0, (now.toEpochMilli() - blocker.sinceMillis()) / 1000);
  }

  /** "45s", "2m13s", "1h04m", "3d02h": the two largest units, as a person reads a wait. */
  static String format(long seconds) {
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return seconds / 60 + "m" + String.format("%02d", seconds % 60) + "s";
    }
    if (seconds < 86_400) {
      return seconds / 3600 + "h" + String.format("%02d", seconds % 3600 / 60) + "m";
    }
    return seconds / 86_400 + "d" + String.format("%02d", seconds % 86_400 / 3600) + "h";
  }
}
