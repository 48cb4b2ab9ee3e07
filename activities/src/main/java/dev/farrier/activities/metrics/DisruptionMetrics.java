package dev.farrier.activities.metrics;

import dev.farrier.model.DisruptionCommand;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Karpenter's voluntary disruption metrics from the planner's result: every command it decides
 * ({@value #DECISIONS}, by decision and reason) and, per reason, how many nodes were eligible in the last round
 * ({@value #ELIGIBLE}). Farrier has no consolidation, so Karpenter's {@code consolidation_type} label is left out.
 */
public final class DisruptionMetrics {
  public static final String DECISIONS = "farrier.voluntary.disruption.decisions";
  public static final String ELIGIBLE = "farrier.voluntary.disruption.eligible.nodes";

  private final MeterRegistry meters;
  private final Map<String, AtomicInteger> eligible = new ConcurrentHashMap<>();

  public DisruptionMetrics(MeterRegistry meters) {
    this.meters = meters;
  }

  public void decided(List<DisruptionCommand> commands) {
    for (DisruptionCommand command : commands) {
      Counter.builder(DECISIONS).description("Disruption decisions made by the planner, by decision (method) and reason.")
          .tags("decision", command.method().word(), "reason", NodeClaimMetrics.label(command.reason()))
          .register(meters).increment();
    }
  }

  /** The last round's eligible nodes by reason; a reason seen before and absent now drops to 0. */
  public void eligible(Map<String, Integer> byReason) {
    byReason.keySet().forEach(this::gauge);
    eligible.forEach((reason, value) -> value.set(byReason.getOrDefault(reason, 0)));
  }

  private AtomicInteger gauge(String reason) {
    return eligible.computeIfAbsent(reason, r -> {
      var value = new AtomicInteger();
      Gauge.builder(ELIGIBLE, value, AtomicInteger::get).description("Nodes eligible for voluntary disruption, by reason.")
          .tags("reason", r).strongReference(true).register(meters);
      return value;
    });
  }
}
