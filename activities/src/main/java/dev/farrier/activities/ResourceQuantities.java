package dev.farrier.activities;

import dev.farrier.workflows.model.Resources;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** Converts between Kubernetes resource lists and {@link Resources} (millicores, bytes, counts). */
public final class ResourceQuantities {
  private ResourceQuantities() {}

  public static Map<String, Quantity> toQuantities(Resources r) {
    Map<String, Quantity> q = new LinkedHashMap<>();
    q.put("cpu", new Quantity(r.milliCpu() + "m"));
    q.put("memory", new Quantity(Long.toString(r.memoryBytes())));
    if (r.ephemeralStorageBytes() > 0) {
      q.put("ephemeral-storage", new Quantity(Long.toString(r.ephemeralStorageBytes())));
    }
    q.put("pods", new Quantity(Long.toString(r.pods())));
    r.extended().forEach((k, v) -> q.put(k, new Quantity(Long.toString(v))));
    return q;
  }

  public static Resources fromQuantities(Map<String, Quantity> quantities) {
    if (quantities == null) {
      return Resources.ZERO;
    }
    long cpu = 0;
    long memory = 0;
    long storage = 0;
    long pods = 0;
    Map<String, Long> extended = new TreeMap<>();
    for (var e : quantities.entrySet()) {
      BigDecimal amount = Quantity.getAmountInBytes(e.getValue());
      switch (e.getKey()) {
        case "cpu" -> cpu = amount.movePointRight(3).setScale(0, java.math.RoundingMode.CEILING).longValueExact();
        case "memory" -> memory = ceil(amount);
        case "ephemeral-storage" -> storage = ceil(amount);
        case "pods" -> pods = ceil(amount);
        default -> {
          if (e.getKey().contains("/")) {
            extended.put(e.getKey(), ceil(amount));
          }
        }
      }
    }
    return new Resources(cpu, memory, storage, pods, extended);
  }

  private static long ceil(BigDecimal amount) {
    return amount.setScale(0, java.math.RoundingMode.CEILING).longValueExact();
  }
}
