package dev.farrier.planner;

import java.util.Locale;

/**
 * The score of one consolidation move in one NodePool of policy {@code Balanced}, as Karpenter v1.14 scores it: the
 * share of the NodePool's price the move saves over the share of the NodePool's disruption cost it causes. The move
 * goes ahead when the score reaches {@link #THRESHOLD}, 1/k with Karpenter's fixed {@code k = 2} (no field sets it).
 *
 * <p>Zero or negative savings score 0 (never approved); a move that disrupts nothing scores infinity. A NodePool whose
 * totals are unknown (no known price, or no disruption cost) scores 0, as upstream: nothing is saved that can be
 * measured.
 *
 * @param savingsFraction    the move's savings (the nodes' prices less the replacement's) over the NodePool's summed price
 * @param disruptionFraction the move's disruption cost over the NodePool's summed disruption cost
 */
public record BalancedScore(double savingsFraction, double disruptionFraction) {
  /** Karpenter's {@code BalancedK}: a move passes when its score is at least 1/k. */
  public static final int K = 2;
  public static final double THRESHOLD = 1.0 / K;

  /** Scores {@code savings} ($/h) and {@code disruption} against the NodePool's totals. */
  static BalancedScore of(double savings, double disruption, double poolPrice, double poolDisruption) {
    if (!(poolPrice > 0) || !(poolDisruption > 0)) {
      return new BalancedScore(0, 0);
    }
    return new BalancedScore(savings / poolPrice, disruption / poolDisruption);
  }

  /** Savings fraction over disruption fraction; 0 without savings, infinite without disruption. */
  public double score() {
    if (!(savingsFraction > 0)) {
      return 0;
    }
    return disruptionFraction == 0 ? Double.POSITIVE_INFINITY : savingsFraction / disruptionFraction;
  }

  public boolean approved() {
    return score() >= THRESHOLD;
  }

  /** How the decision reads: {@code Balanced: score 0.42 below threshold 0.50 (saves 3.0% of ... for 7.1% of ...)}. */
  public String explain() {
    return String.format(Locale.ROOT, "Balanced: score %.2f %s threshold %.2f (saves %.1f%% of the NodePool's price for"
        + " %.1f%% of its disruption cost)", score(), approved() ? "reaches" : "below", THRESHOLD, savingsFraction * 100,
        disruptionFraction * 100);
  }
}
