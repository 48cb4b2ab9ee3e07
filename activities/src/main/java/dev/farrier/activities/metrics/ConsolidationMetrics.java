package dev.farrier.activities.metrics;

import dev.farrier.planner.ConsolidationMove;
import io.micrometer.core.instrument.Counter;
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
  public static final String MOVES = "karpenter.consolidation.moves";
  public static final String SCORE = "karpenter.consolidation.score";
  private static final String MOVES_HELP = "Number of balanced consolidation moves. Labeled by decision, NodePool, and policy.";
  private static final String SCORE_HELP = "Score of balanced consolidation moves. Labeled by decision, NodePool, and policy.";
  /** Karpenter's buckets for the score. */
  static final double[] SCORE_BUCKETS = {0.1, 0.25, 0.33, 0.5, 1.0, 2.0, 5.0, 10.0};
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
      Counter.builder(MOVES).description(MOVES_HELP).tags("decision", decision, "nodepool", move.nodePool(), "policy", move.policy())
          .register(meters).increment();
      if (move.score() == null) {
        continue;
      }
      if (prometheusScores != null) {
        prometheusScores.labelValues(decision, move.nodePool(), move.policy()).observe(move.score().score());
      } else {
        DistributionSummary.builder(SCORE).description(SCORE_HELP).serviceLevelObjectives(SCORE_BUCKETS)
            .tags("decision", decision, "nodepool", move.nodePool(), "policy", move.policy())
            .register(meters).record(move.score().score());
      }
    }
  }

  private static Histogram histogram(PrometheusRegistry registry) {
    synchronized (HISTOGRAMS) {
      return HISTOGRAMS.computeIfAbsent(registry, r -> Histogram.builder().name(SCORE.replace('.', '_')).help(SCORE_HELP)
          .labelNames("decision", "nodepool", "policy").withoutExemplars().classicOnly().classicUpperBounds(SCORE_BUCKETS).register(r));
    }
  }
}
