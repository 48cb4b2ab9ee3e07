package dev.farrier.activities.metrics;

import dev.farrier.planner.ConsolidationMove;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Karpenter v1.14's consolidation metrics, with its names, labels and buckets, from the moves a disruption round weighed
 * ({@link ConsolidationMove}): {@code karpenter_consolidation_moves_total} counts every move by decision
 * ({@code approved} or {@code rejected}), NodePool and policy; {@code karpenter_consolidation_score} is the histogram of
 * the scores of the moves of {@code Balanced} NodePools, by the same labels.
 *
 * <p>The score's buckets are fractions (0.1 to 10, the threshold 0.5 among them), and Micrometer's DistributionSummary
 * rounds every value up to a whole number before it finds its bucket (a score of 0.2 lands in {@code le="1.0"}). On the
 * worker's Prometheus registry the histogram is therefore the Prometheus client's own, registered beside Micrometer's
 * meters on the same {@link PrometheusRegistry} (one per registry); on any other registry (tests) a DistributionSummary
 * with the same name and buckets, whose count and sum are right.
 */
public final class ConsolidationMetrics {
  /** The names the meters are registered under (the catalogue's, {@link MetricCatalog#CONSOLIDATION_MOVES} and {@link MetricCatalog#CONSOLIDATION_SCORE}). */
  public static final String MOVES = MetricCatalog.CONSOLIDATION_MOVES.registeredName();
  public static final String SCORE = MetricCatalog.CONSOLIDATION_SCORE.registeredName();
  /** Karpenter's buckets for the score, as the catalogue names them. */
  static final double[] SCORE_BUCKETS = MetricCatalog.CONSOLIDATION_SCORE.buckets().stream().mapToDouble(Double::doubleValue).toArray();
  private static final Map<PrometheusRegistry, Histogram> HISTOGRAMS = new WeakHashMap<>();

  private final MeterRegistry meters;
  private final Histogram prometheusScores;

  public ConsolidationMetrics(MeterRegistry meters) {
    this.meters = meters;
    this.prometheusScores = meters instanceof PrometheusMeterRegistry prometheus ? histogram(prometheus.getPrometheusRegistry()) : null;
  }

  public void weighed(List<ConsolidationMove> moves) {
    for (ConsolidationMove move : moves) {
      String decision = move.approved() ? "approved" : "rejected";
      MetricCatalog.CONSOLIDATION_MOVES.counter(meters, decision, move.nodePool(), move.policy()).increment();
      if (move.score() == null) {
        continue;
      }
      if (prometheusScores != null) {
        prometheusScores.labelValues(decision, move.nodePool(), move.policy()).observe(move.score().score());
      } else {
        DistributionSummary.builder(SCORE).description(MetricCatalog.CONSOLIDATION_SCORE.help()).serviceLevelObjectives(SCORE_BUCKETS)
            .tags(MetricCatalog.CONSOLIDATION_SCORE.tags(decision, move.nodePool(), move.policy()))
            .register(meters).record(move.score().score());
      }
    }
  }

  private static Histogram histogram(PrometheusRegistry registry) {
    synchronized (HISTOGRAMS) {
      var definition = MetricCatalog.CONSOLIDATION_SCORE;
      return HISTOGRAMS.computeIfAbsent(registry, r -> Histogram.builder().name(definition.name()).help(definition.help())
          .labelNames(definition.labels().toArray(String[]::new)).withoutExemplars().classicOnly().classicUpperBounds(SCORE_BUCKETS).register(r));
    }
  }
}
