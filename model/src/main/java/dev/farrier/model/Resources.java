package dev.farrier.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * An amount of node resources in integer base units: millicores of CPU, bytes of memory and ephemeral storage,
 * a pod count, and extended resources (e.g. {@code nvidia.com/gpu}) by name.
 */
public record Resources(long milliCpu, long memoryBytes, long ephemeralStorageBytes, long pods, Map<String, Long> extended) {
  public static final Resources ZERO = new Resources(0, 0, 0, 0, Map.of());

  public Resources {
    extended = extended == null ? Map.of() : Map.copyOf(extended);
  }

  public static Resources of(long milliCpu, long memoryBytes, long pods) {
    return new Resources(milliCpu, memoryBytes, 0, pods, Map.of());
  }

  /** The sum, saturating at the bounds of a long (an absurd request stays absurd instead of wrapping around). */
  public Resources plus(Resources other) {
    if (extended.isEmpty() && other.extended.isEmpty()) {
      // The common case in the planner's inner loops: no map to merge.
      return new Resources(add(milliCpu, other.milliCpu), add(memoryBytes, other.memoryBytes),
          add(ephemeralStorageBytes, other.ephemeralStorageBytes), add(pods, other.pods), Map.of());
    }
    Map<String, Long> ext = new TreeMap<>(extended);
    other.extended.forEach((k, v) -> ext.merge(k, v, Resources::add));
    return new Resources(add(milliCpu, other.milliCpu), add(memoryBytes, other.memoryBytes),
        add(ephemeralStorageBytes, other.ephemeralStorageBytes), add(pods, other.pods), ext);
  }

  /** The difference, saturating as {@link #plus} does. */
  public Resources minus(Resources other) {
    if (extended.isEmpty() && other.extended.isEmpty()) {
      return new Resources(subtract(milliCpu, other.milliCpu), subtract(memoryBytes, other.memoryBytes),
          subtract(ephemeralStorageBytes, other.ephemeralStorageBytes), subtract(pods, other.pods), Map.of());
    }
    Map<String, Long> ext = new TreeMap<>(extended);
    other.extended.forEach((k, v) -> ext.merge(k, negate(v), Resources::add));
    return new Resources(subtract(milliCpu, other.milliCpu), subtract(memoryBytes, other.memoryBytes),
        subtract(ephemeralStorageBytes, other.ephemeralStorageBytes), subtract(pods, other.pods), ext);
  }

  /** {@code a + b}, or the bound it passed. */
  public static long add(long a, long b) {
    long sum = a + b;
    // Overflow only when both operands have the sign the sum lacks.
    if (((a ^ sum) & (b ^ sum)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return sum;
  }

  /** {@code a - b}, or the bound it passed. */
  public static long subtract(long a, long b) {
    return add(a, negate(b));
  }

  private static long negate(long v) {
    return v == Long.MIN_VALUE ? Long.MAX_VALUE : -v;
  }

  /** True when every amount here is at most the same amount in {@code capacity}. */
  public boolean fitsIn(Resources capacity) {
    if (milliCpu > capacity.milliCpu || memoryBytes > capacity.memoryBytes || pods > capacity.pods) {
      return false;
    }
    if (ephemeralStorageBytes > 0 && ephemeralStorageBytes > capacity.ephemeralStorageBytes) {
      return false;
    }
    for (var e : extended.entrySet()) {
      if (e.getValue() > 0 && e.getValue() > capacity.extended.getOrDefault(e.getKey(), 0L)) {
        return false;
      }
    }
    return true;
  }
}
