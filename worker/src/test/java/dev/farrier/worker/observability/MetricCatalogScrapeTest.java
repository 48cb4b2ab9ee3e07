package dev.farrier.worker.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.metrics.ConsolidationMetrics;
import dev.farrier.activities.metrics.LabelledGauge;
import dev.farrier.activities.metrics.MetricCatalog;
import dev.farrier.activities.metrics.MetricDefinition;
import dev.farrier.activities.metrics.MetricsRefresh;
import dev.farrier.planner.BalancedScore;
import dev.farrier.planner.ConsolidationMove;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Every definition of the catalog, registered and scraped as the worker serves it, comes out under its exact name and
 * type (Karpenter's {@code _created_total} and {@code _info} names included, which the Prometheus client would
 * otherwise rename), and a refresh runs before each scrape while a failing one leaves the scrape whole.
 */
class MetricCatalogScrapeTest {
  @Test
  void everyDefinitionIsExportedUnderItsNameAndType() {
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    for (MetricDefinition m : MetricCatalog.ALL) {
      String[] values = m.labels().stream().map(l -> "x").toArray(String[]::new);
      switch (m.type()) {
        case COUNTER -> m.counter(registry, values).increment();
        case GAUGE -> m.gauge(registry, new AtomicInteger(1), AtomicInteger::get, values);
        case HISTOGRAM, SUMMARY -> {
          if (!m.buckets().isEmpty()) { // the score histogram, not a duration
            new ConsolidationMetrics(registry).weighed(List.of(new ConsolidationMove("x", "Balanced", true, new BalancedScore(0.5, 0.5))));
          } else {
            m.timer(registry, values).record(java.time.Duration.ofMillis(30));
          }
        }
      }
    }
    String body = MetricsServer.scrape(registry, List.of());
    for (MetricDefinition m : MetricCatalog.ALL) {
      assertTrue(body.contains("# TYPE " + m.name() + " " + m.type().name().toLowerCase(Locale.ROOT) + "\n"), m.name() + " in\n" + body);
    }
    assertTrue(body.contains("karpenter_nodeclaims_created_total{min_values_relaxed=\"x\",nodepool=\"x\",reason=\"x\"} 1.0"), body);
    assertTrue(body.contains("karpenter_scheduler_scheduling_duration_seconds_bucket{controller=\"x\",le=\"0.05\"} 1"), body);
    assertTrue(body.contains("karpenter_pods_startup_duration_seconds{quantile=\"0.5\"}"), body);
    assertFalse(body.contains("karpenter_nodeclaims_total"), "the Prometheus client's renaming undone");
  }

  @Test
  void refreshesRunBeforeTheScrapeAndAFailingOneLeavesItWhole() {
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    LabelledGauge rollouts = MetricCatalog.ROLLOUTS.labelledGauge(registry);
    MetricsRefresh failing = () -> {
      throw new IllegalStateException("visibility is down");
    };
    MetricsRefresh setting = () -> rollouts.set(List.of(new LabelledGauge.Row(List.of("Rolling", "default"), 2)));
    String body = MetricsServer.scrape(registry, List.of(failing, setting));
    assertTrue(body.contains("farrier_rollouts{nodepool=\"default\",phase=\"Rolling\"} 2.0"), body);
    rollouts.set(List.of());
    assertEquals(-1, MetricsServer.scrape(registry, List.of()).indexOf("farrier_rollouts{"), "a row gone is gone from the scrape");
  }
}
