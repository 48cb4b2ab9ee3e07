package dev.farrier.activities.views;

import dev.farrier.model.Resources;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
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

  /**
   * The resources a Kubernetes resource list names, in base units rounded up. Never throws for size: an amount beyond
   * what a long holds saturates at the bound (a request that large fits nowhere, as it should); use {@link #problem}
   * where a value too large is an error of the object (a NodePool's limits).
   */
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
        case "cpu" -> cpu = ceil(amount.movePointRight(3));
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

  /**
   * What is wrong with {@code quantity} as an amount of {@code resource} Farrier can count (negative, not a quantity,
   * or more than a long holds in its base unit: millicores for cpu), or null when nothing is.
   */
  public static String problem(String resource, Quantity quantity) {
    BigDecimal amount;
    try {
      amount = Quantity.getAmountInBytes(quantity);
    } catch (RuntimeException e) {
      return "'" + quantity + "' is not a quantity";
    }
    BigDecimal base = "cpu".equals(resource) ? amount.movePointRight(3) : amount;
    if (base.signum() < 0) {
      return "'" + quantity + "' is negative";
    }
    if (base.compareTo(LONG_MAX) > 0) {
      return "'" + quantity + "' is too large (at most " + Long.MAX_VALUE + ("cpu".equals(resource) ? "m" : "") + ")";
    }
    return null;
  }

  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);

  private static long ceil(BigDecimal amount) {
    BigDecimal whole = amount.setScale(0, RoundingMode.CEILING);
    if (whole.compareTo(LONG_MAX) > 0) {
      return Long.MAX_VALUE;
    }
    if (whole.compareTo(LONG_MIN) < 0) {
      return Long.MIN_VALUE;
    }
    return whole.longValue();
  }
}
