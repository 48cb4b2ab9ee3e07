package dev.farrier.activities.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Decisions counted with Karpenter's consolidation type, and eligible nodes per reason dropping to 0 when gone. */
class DisruptionMetricsTest {
  private static DisruptionCommand command(DisruptionMethod method, String reason, List<String> consolidatedWith) {
    return new DisruptionCommand("c", "n", "pool", "i-1", method, reason, "detail", 1, null, null, null, false, false, null, consolidatedWith);
  }

  @Test
  void decisionsCarryTheConsolidationType() {
    var meters = new SimpleMeterRegistry();
    var metrics = new DisruptionMetrics(meters);
    metrics.decided(List.of(command(DisruptionMethod.REPLACE, "Drifted", List.of()),
        command(DisruptionMethod.DELETE, DisruptionCommand.REASON_EMPTY, List.of()),
        command(DisruptionMethod.REPLACE, DisruptionCommand.REASON_UNDERUTILIZED, List.of()),
        command(DisruptionMethod.REPLACE, DisruptionCommand.REASON_UNDERUTILIZED, List.of("other"))));
    String name = MetricCatalog.DISRUPTION_DECISIONS.registeredName();
    assertEquals(1, meters.get(name).tags("reason", "drifted", "consolidation_type", "").counter().count());
    assertEquals(1, meters.get(name).tags("reason", "empty", "consolidation_type", "empty").counter().count());
    assertEquals(1, meters.get(name).tags("reason", "underutilized", "consolidation_type", "single").counter().count());
    assertEquals(1, meters.get(name).tags("reason", "underutilized", "consolidation_type", "multi").counter().count());
  }

  @Test
  void anEligibleReasonGoneDropsToZero() {
    var meters = new SimpleMeterRegistry();
    var metrics = new DisruptionMetrics(meters);
    metrics.eligible(Map.of("drifted", 3));
    metrics.eligible(Map.of("expired", 1));
    String name = MetricCatalog.DISRUPTION_ELIGIBLE_NODES.registeredName();
    assertEquals(0, meters.get(name).tag("reason", "drifted").gauge().value());
    assertEquals(1, meters.get(name).tag("reason", "expired").gauge().value());
  }
}
