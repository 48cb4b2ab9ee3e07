package dev.farrier.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's load average (1, 5 and 15 minutes), which the figures of a shared machine must be read with. */
final class LoadAverage {
  private LoadAverage() {}

  static String now() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException | ArrayIndexOutOfBoundsException e) {
      return "unknown (no /proc/loadavg)";
    }
  }
}
