package dev.farrier.planner;

import dev.farrier.model.Resources;

/** Kubernetes-style quantity text for reason strings ({@code 1500m}, {@code 2}, {@code 512Mi}, {@code 4Gi}). */
final class Quantities {
  private Quantities() {}

  static String cpu(long milliCpu) {
    return milliCpu % 1000 == 0 ? Long.toString(milliCpu / 1000) : milliCpu + "m";
  }

  static String bytes(long bytes) {
    long gi = 1L << 30;
    long mi = 1L << 20;
    if (bytes != 0 && bytes % gi == 0) {
      return bytes / gi + "Gi";
    }
    if (bytes != 0 && bytes % mi == 0) {
      return bytes / mi + "Mi";
    }
    return Long.toString(bytes);
  }

  static String describe(Resources r) {
    StringBuilder sb = new StringBuilder("cpu ").append(cpu(r.milliCpu())).append(", memory ").append(bytes(r.memoryBytes()))
        .append(", pods ").append(r.pods());
    if (r.ephemeralStorageBytes() > 0) {
      sb.append(", ephemeral-storage ").append(bytes(r.ephemeralStorageBytes()));
    }
    new java.util.TreeMap<>(r.extended()).forEach((k, v) -> {
      if (v > 0) {
        sb.append(", ").append(k).append(' ').append(v);
      }
    });
    return sb.toString();
  }
}
