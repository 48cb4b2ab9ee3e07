package dev.farrier.activities.metrics;

import dev.farrier.model.DisruptionCommand;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Karpenter's voluntary disruption metrics from the planner's result: every command it decides
 * ({@code karpenter_voluntary_disruption_decisions_total}, by decision, reason and consolidation type) and, per reason,
 * how many nodes were eligible in the last round ({@code karpenter_voluntary_disruption_eligible_nodes}).
 */
public final class DisruptionMetrics {
  private final MeterRegistry meters;
  private final Map<String, AtomicInteger> eligible = new ConcurrentHashMap<>();

  public DisruptionMetrics(MeterRegistry meters) {
    this.meters = meters;
  }

  public void decided(List<DisruptionCommand> commands) {
    for (DisruptionCommand command : commands) {
      MetricCatalog.DISRUPTION_DECISIONS.counter(meters, command.method().word(), NodeClaimMetrics.label(command.reason()),
          consolidationType(command)).increment();
    }
  }

  /**
   * Karpenter's consolidation type: {@code empty} for an empty node, {@code multi} for a replacement of several nodes,
   * {@code single} for one underutilized node, and empty for every other reason (drift, expiry, ...), as upstream.
   */
  static String consolidationType(DisruptionCommand command) {
    if (DisruptionCommand.REASON_EMPTY.equals(command.reason())) {
      return "empty";
    }
    if (!DisruptionCommand.REASON_UNDERUTILIZED.equals(command.reason())) {
      return "";
    }
    return command.consolidatedWith().isEmpty() ? "single" : "multi";
  }

  /** The last round's eligible nodes by reason; a reason seen before and absent now drops to 0. */
  public void eligible(Map<String, Integer> byReason) {
    byReason.keySet().forEach(this::gauge);
    eligible.forEach((reason, value) -> value.set(byReason.getOrDefault(reason, 0)));
  }

  private AtomicInteger gauge(String reason) {
    return eligible.computeIfAbsent(reason, r -> {
      var value = new AtomicInteger();
      MetricCatalog.DISRUPTION_ELIGIBLE_NODES.gauge(meters, value, AtomicInteger::get, r);
      return value;
    });
  }
}
