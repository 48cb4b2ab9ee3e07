package dev.farrier.workflows.model;

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

  public Resources plus(Resources other) {
    if (extended.isEmpty() && other.extended.isEmpty()) {
      // The common case in the planner's inner loops: no map to merge.
      return new Resources(milliCpu + other.milliCpu, memoryBytes + other.memoryBytes,
          ephemeralStorageBytes + other.ephemeralStorageBytes, pods + other.pods, Map.of());
    }
    Map<String, Long> ext = new TreeMap<>(extended);
    other.extended.forEach((k, v) -> ext.merge(k, v, Long::sum));
    return new Resources(milliCpu + other.milliCpu, memoryBytes + other.memoryBytes,
        ephemeralStorageBytes + other.ephemeralStorageBytes, pods + other.pods, ext);
  }

  public Resources minus(Resources other) {
    if (extended.isEmpty() && other.extended.isEmpty()) {
      return new Resources(milliCpu - other.milliCpu, memoryBytes - other.memoryBytes,
          ephemeralStorageBytes - other.ephemeralStorageBytes, pods - other.pods, Map.of());
    }
    Map<String, Long> ext = new TreeMap<>(extended);
    other.extended.forEach((k, v) -> ext.merge(k, -v, Long::sum));
    return new Resources(milliCpu - other.milliCpu, memoryBytes - other.memoryBytes,
        ephemeralStorageBytes - other.ephemeralStorageBytes, pods - other.pods, ext);
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
