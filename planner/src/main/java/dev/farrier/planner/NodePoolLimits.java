package dev.farrier.planner;

import dev.farrier.model.Resources;
import java.util.Map;

/**
 * A NodePool's {@code spec.limits}: the most capacity its nodes may have in total. A null amount is unlimited
 * (Karpenter limits only the resources the user names, and {@code cpu: 0} is a legal way to stop a pool, so
 * {@link Resources} with zeros cannot express this).
 */
public record NodePoolLimits(Long milliCpu, Long memoryBytes, Long ephemeralStorageBytes, Long pods, Map<String, Long> extended) {
  public static final NodePoolLimits NONE = new NodePoolLimits(null, null, null, null, Map.of());

  public NodePoolLimits {
    extended = extended == null ? Map.of() : Map.copyOf(extended);
  }

  public static NodePoolLimits cpuAndMemory(Long milliCpu, Long memoryBytes) {
    return new NodePoolLimits(milliCpu, memoryBytes, null, null, Map.of());
  }

  /** The first limited resource that {@code total} exceeds, described for a reason string, or null. */
  String firstExceeded(Resources total) {
    if (milliCpu != null && total.milliCpu() > milliCpu) {
      return "cpu " + Quantities.cpu(total.milliCpu()) + " > limit " + Quantities.cpu(milliCpu);
    }
    if (memoryBytes != null && total.memoryBytes() > memoryBytes) {
      return "memory " + Quantities.bytes(total.memoryBytes()) + " > limit " + Quantities.bytes(memoryBytes);
    }
    if (ephemeralStorageBytes != null && total.ephemeralStorageBytes() > ephemeralStorageBytes) {
      return "ephemeral-storage " + Quantities.bytes(total.ephemeralStorageBytes()) + " > limit "
          + Quantities.bytes(ephemeralStorageBytes);
    }
    if (pods != null && total.pods() > pods) {
      return "pods " + total.pods() + " > limit " + pods;
    }
    for (var e : new java.util.TreeMap<>(extended).entrySet()) {
      long used = total.extended().getOrDefault(e.getKey(), 0L);
      if (used > e.getValue()) {
        return e.getKey() + " " + used + " > limit " + e.getValue();
      }
    }
    return null;
  }
}
