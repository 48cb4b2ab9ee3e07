package dev.farrier.activities.metrics;

/**
 * Puts back the names the Prometheus Java client would not register: it keeps {@code _created} and {@code _info} to
 * itself (a counter's creation time, an info metric), strips them from a name and so would export Karpenter's
 * {@code karpenter_nodeclaims_created_total} as {@code karpenter_nodeclaims_total}. Those meters are registered with
 * {@link MetricDefinition#RESERVED_MARK} after the reserved word ({@link MetricDefinition#registeredName()}), and the
 * scrape has the mark taken off here. The text format 0.0.4 the worker serves writes no {@code _created} series of its
 * own, so nothing else can collide with the restored names.
 */
public final class ExportedNames {
  private ExportedNames() {}

  /** The scrape with every marked name restored to its exported one. */
  public static String restore(String scrape) {
    return scrape.replace(MetricDefinition.RESERVED_MARK, "");
  }
}
