package dev.farrier.activities.headroom;

import dev.farrier.activities.views.ResourceQuantities;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.Headroom;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code farrier.dev/headroom}: comma-separated {@code key=value} pairs, either {@code pods=<n>} with
 * {@code cpu=<quantity>} and/or {@code memory=<quantity>} (n placeholders of that size; Kubernetes quantities, read by
 * fabric8's {@link Quantity}), or {@code cpu=<p>%} alone (p percent, at most {@link Headroom#MAX_CPU_PERCENT}, of the pool's allocatable CPU, in placeholders of
 * one CPU). Anything else is refused with a message naming the annotation and what is wrong.
 */
public final class HeadroomAnnotation {
  /** At most this many placeholders per NodePool: a typo of a few zeros must not ask for a fleet. */
  public static final int MAX_PODS = Headroom.MAX_PODS;
  private static final Set<String> KEYS = Set.of("pods", "cpu", "memory");

  private HeadroomAnnotation() {}

  /** Thrown for a value that is not a headroom; its message names the annotation. */
  public static final class Invalid extends IllegalArgumentException {
    Invalid(String value, String problem) {
      super(WellKnown.HEADROOM_ANNOTATION + " '" + value + "': " + problem
          + " (expected e.g. 'pods=4,cpu=1,memory=2Gi' or 'cpu=10%')");
    }
  }

  public static Headroom parse(String value) {
    Map<String, String> pairs = pairs(value);
    String cpu = pairs.get("cpu");
    if (cpu != null && cpu.endsWith("%")) {
      if (pairs.size() > 1) {
        throw new Invalid(value, "cpu as a percent of the pool sizes the placeholders itself (one CPU each): no pods or memory beside it");
      }
      return Headroom.ofCpuPercent(percent(value, cpu.substring(0, cpu.length() - 1)));
    }
    String pods = pairs.get("pods");
    if (pods == null) {
      throw new Invalid(value, "pods is required with a cpu or memory size (or give cpu as a percent of the pool, 'cpu=10%')");
    }
    if (cpu == null && !pairs.containsKey("memory")) {
      throw new Invalid(value, "each placeholder needs a size: cpu, memory or both");
    }
    long milliCpu = cpu == null ? 0 : quantity(value, "cpu", cpu);
    long memory = pairs.containsKey("memory") ? quantity(value, "memory", pairs.get("memory")) : 0;
    if (milliCpu == 0 && memory == 0) {
      throw new Invalid(value, "a placeholder of no cpu and no memory keeps no room");
    }
    return Headroom.ofPods(count(value, pods), milliCpu, memory);
  }

  private static Map<String, String> pairs(String value) {
    if (value == null || value.isBlank()) {
      throw new Invalid(String.valueOf(value), "empty");
    }
    Map<String, String> pairs = new LinkedHashMap<>();
    for (String part : value.split(",", -1)) {
      int eq = part.indexOf('=');
      if (eq < 0) {
        throw new Invalid(value, "'" + part.trim() + "' is not key=value");
      }
      String key = part.substring(0, eq).trim();
      String v = part.substring(eq + 1).trim();
      if (!KEYS.contains(key)) {
        throw new Invalid(value, "unknown key '" + key + "' (known: pods, cpu, memory)");
      }
      if (pairs.put(key, v) != null) {
        throw new Invalid(value, key + " is given twice");
      }
    }
    return pairs;
  }

  private static int count(String value, String pods) {
    try {
      int n = Integer.parseInt(pods);
      if (n >= 1 && n <= MAX_PODS) {
        return n;
      }
    } catch (NumberFormatException e) {
      // refused below with the range
    }
    throw new Invalid(value, "pods must be a whole number from 1 to " + MAX_PODS + ", not '" + pods + "'");
  }

  private static int percent(String value, String number) {
    try {
      int p = Integer.parseInt(number);
      if (p >= 1 && p <= Headroom.MAX_CPU_PERCENT) {
        return p;
      }
    } catch (NumberFormatException e) {
      // refused below with the range
    }
    throw new Invalid(value, "cpu percent must be a whole number from 1 to " + Headroom.MAX_CPU_PERCENT + ", not '" + number + "%'");
  }

  /** The amount in millicores (cpu) or bytes (memory), as the Kubernetes quantity {@code text} says. */
  private static long quantity(String value, String resource, String text) {
    Quantity quantity = Quantity.parse(text);
    String problem = ResourceQuantities.problem(resource, quantity);
    if (problem != null) {
      throw new Invalid(value, resource + " " + problem);
    }
    var amount = ResourceQuantities.fromQuantities(Map.of(resource, quantity));
    return "cpu".equals(resource) ? amount.milliCpu() : amount.memoryBytes();
  }
}
