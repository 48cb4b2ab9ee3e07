package dev.farrier.worker.observability;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.metrics.ConsolidationMetrics;
import dev.farrier.planner.BalancedScore;
import dev.farrier.planner.ConsolidationMove;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Karpenter's consolidation metrics as the worker's {@code /metrics} serves them: {@code karpenter_consolidation_moves_total}
 * (counter) and {@code karpenter_consolidation_score} (histogram with Karpenter's buckets), labelled decision, nodepool and
 * policy, moving with the moves a round weighed.
 */
class ConsolidationMetricsScrapeTest {
  @Test
  void movesAndScoresAreScrapedUnderKarpentersNamesAndLabels() {
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    var metrics = new ConsolidationMetrics(registry);
    assertFalse(registry.scrape().contains("karpenter_consolidation"), "nothing before a move");

    metrics.weighed(List.of(
        new ConsolidationMove("default", "Balanced", false, score(0.1, 0.5)),
        new ConsolidationMove("default", "Balanced", true, score(0.3, 0.2)),
        new ConsolidationMove("general", "WhenEmptyOrUnderutilized", true, null)));
    metrics.weighed(List.of(new ConsolidationMove("default", "Balanced", true, score(0.3, 0.2))));

    String scrape = registry.scrape();
    for (String line : new String[] {
        "# TYPE karpenter_consolidation_moves_total counter",
        "karpenter_consolidation_moves_total{decision=\"rejected\",nodepool=\"default\",policy=\"Balanced\"} 1.0",
        "karpenter_consolidation_moves_total{decision=\"approved\",nodepool=\"default\",policy=\"Balanced\"} 2.0",
        "karpenter_consolidation_moves_total{decision=\"approved\",nodepool=\"general\",policy=\"WhenEmptyOrUnderutilized\"} 1.0",
        "# TYPE karpenter_consolidation_score histogram",
        // 0.1 / 0.5 = 0.2: in the 0.25 bucket, not the 0.1 one.
        "karpenter_consolidation_score_bucket{decision=\"rejected\",nodepool=\"default\",policy=\"Balanced\",le=\"0.1\"} 0",
        "karpenter_consolidation_score_bucket{decision=\"rejected\",nodepool=\"default\",policy=\"Balanced\",le=\"0.25\"} 1",
        // 0.3 / 0.2 = 1.5, twice: above 1, within 2.
        "karpenter_consolidation_score_bucket{decision=\"approved\",nodepool=\"default\",policy=\"Balanced\",le=\"1.0\"} 0",
        "karpenter_consolidation_score_bucket{decision=\"approved\",nodepool=\"default\",policy=\"Balanced\",le=\"2.0\"} 2",
        "karpenter_consolidation_score_count{decision=\"approved\",nodepool=\"default\",policy=\"Balanced\"} 2"}) {
      assertTrue(scrape.contains(line), line + "\nnot in:\n" + scrape);
    }
    assertFalse(scrape.contains("karpenter_consolidation_score_count{decision=\"approved\",nodepool=\"general\""),
        "no score outside Balanced");
  }

  private static BalancedScore score(double savings, double disruption) {
    return new BalancedScore(savings, disruption);
  }
}
