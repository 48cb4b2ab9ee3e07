package dev.farrier.planner;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One round's scoring of consolidation moves for the NodePools of policy {@code Balanced} ({@link BalancedScore}), with
 * Karpenter v1.14's totals, taken once per round: a NodePool's price is the summed price of its NodeClaims (their offering
 * in their zone and capacity type; a claim of unknown price adds nothing), its disruption cost the summed disruption cost
 * of its nodes (see {@link #moveCost}). A move's savings are the prices of its nodes less its replacement's; a move over
 * several NodePools gives each a share of the savings by its nodes' share of the price, and goes ahead only when every
 * {@code Balanced} NodePool of it approves. Also keeps the moves it weighed, for the metrics ({@link ConsolidationMove}).
 */
final class BalancedScoring {
  static final String BALANCED = NodePoolView.BALANCED;

  private final ConsolidationView view;
  private final Map<String, Double> poolPrice = new HashMap<>();
  private final Map<String, Double> poolDisruption = new HashMap<>();
  private final List<ConsolidationMove> moves = new ArrayList<>();

  BalancedScoring(ConsolidationView view, List<NodeClaimView> claims, List<NodePoolView> pools) {
    this.view = view;
    Map<String, NodePoolView> byName = new HashMap<>();
    pools.forEach(p -> byName.put(p.name(), p));
    for (NodeClaimView c : claims) {
      NodePoolView pool = byName.get(c.nodePool());
      if (pool == null || !BALANCED.equals(pool.consolidationPolicy())) {
        continue;
      }
      double price = ClaimPrice.running(c, view.instanceTypes().getOrDefault(pool.name(), List.of()));
      poolPrice.merge(pool.name(), Double.isNaN(price) ? 0 : price, Double::sum);
      poolDisruption.merge(pool.name(), moveCost(c), Double::sum);
    }
  }

  /**
   * Karpenter's disruption cost of a node: 1 for the node itself, plus each of the pods a drain would move counted
   * {@code max(0, eviction cost)} (1 by default; pod deletion cost and priority raise or lower it), as the planning
   * activity read it ({@link ConsolidationView#moveCost}); 1 plus its pods to move when it was not read, 1 without a node.
   */
  double moveCost(NodeClaimView claim) {
    if (claim.nodeName() == null) {
      return 1.0;
    }
    return view.moveCost().getOrDefault(claim.nodeName(), 1.0 + claim.pods().reschedulable());
  }

  /** The scores of a move of {@code candidates} (priced {@code prices}) that saves {@code savings} $/h, per Balanced NodePool. */
  Verdict score(List<Underutilization.Candidate> candidates, List<Double> prices, double savings) {
    Map<String, Double> price = new LinkedHashMap<>();
    Map<String, Double> disruption = new LinkedHashMap<>();
    Map<String, String> policy = new LinkedHashMap<>();
    double total = 0;
    for (int i = 0; i < candidates.size(); i++) {
      var c = candidates.get(i);
      double p = Double.isNaN(prices.get(i)) ? 0 : prices.get(i);
      total += p;
      price.merge(c.pool().name(), p, Double::sum);
      disruption.merge(c.pool().name(), moveCost(c.claim()), Double::sum);
      policy.put(c.pool().name(), c.pool().consolidationPolicy());
    }
    Map<String, BalancedScore> scores = new LinkedHashMap<>();
    for (var e : policy.entrySet()) {
      String pool = e.getKey();
      if (!BALANCED.equals(e.getValue())) {
        continue;
      }
      double share = policy.size() > 1 && total > 0 ? savings * price.get(pool) / total : savings;
      scores.put(pool, BalancedScore.of(share, disruption.get(pool), poolPrice.getOrDefault(pool, 0.0),
          poolDisruption.getOrDefault(pool, 0.0)));
    }
    return new Verdict(policy, scores);
  }

  /**
   * The best a single candidate can score: deleted outright (all its price saved, nothing launched), as upstream
   * filters candidates before it simulates them; null outside {@code Balanced}.
   */
  BalancedScore bestCase(Underutilization.Candidate c, double price) {
    if (!BALANCED.equals(c.pool().consolidationPolicy())) {
      return null;
    }
    return score(List.of(c), List.of(price), Double.isNaN(price) ? 0 : price).scores().get(c.pool().name());
  }

  /** Counts a move weighed this round: one per NodePool of it, approved or not as a whole (scores per NodePool). */
  void count(Verdict verdict) {
    boolean approved = verdict.approved();
    verdict.policies().forEach((pool, policy) -> moves.add(new ConsolidationMove(pool, policy, approved, verdict.scores().get(pool))));
  }

  List<ConsolidationMove> moves() {
    return List.copyOf(moves);
  }

  /**
   * A move's scores.
   *
   * @param policies per NodePool of the move, its policy
   * @param scores   per Balanced NodePool of the move, its score
   */
  record Verdict(Map<String, String> policies, Map<String, BalancedScore> scores) {
    boolean approved() {
      return scores.values().stream().allMatch(BalancedScore::approved);
    }

    /** Why the move does not go ahead (the first NodePool that turns it down), or null when it does. */
    String whyNot() {
      for (var e : scores.entrySet()) {
        if (!e.getValue().approved()) {
          return e.getValue().explain() + (policies.size() > 1 ? " in NodePool " + e.getKey() : "");
        }
      }
      return null;
    }

    /** How the scores read when the move goes ahead ("" outside Balanced). */
    String why() {
      return scores.values().stream().map(s -> "; " + s.explain()).reduce("", String::concat);
    }
  }
}
