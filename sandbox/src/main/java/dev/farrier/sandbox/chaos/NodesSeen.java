package dev.farrier.sandbox.chaos;

import dev.farrier.sandbox.chaos.Observation.Replacement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Where the nodes stood in one observation, for judging a pod that left one: its NodeClaim (by {@code status.nodeName}),
 * whether that claim's instance is live, and the reasons of the replacements running for it (found by node or by
 * NodeClaim, whichever the search attributes carry).
 */
final class NodesSeen {
  private final Map<String, String> claimOfNode = new HashMap<>();
  private final Set<String> liveClaims;
  private final Set<String> budgetedReasons;
  private final Map<String, Set<String>> reasons = new HashMap<>();

  /**
   * @param liveClaims the NodeClaims named by a live Farrier instance's tags
   * @param budgetedReasons the voluntary replacement reasons; any other is involuntary
   */
  NodesSeen(Observation now, Set<String> liveClaims, Set<String> budgetedReasons) {
    this.liveClaims = Set.copyOf(liveClaims);
    this.budgetedReasons = budgetedReasons;
    now.claims().stream().filter(c -> c.nodeName() != null).forEach(c -> claimOfNode.put(c.nodeName(), c.name()));
    for (Replacement r : now.replacements()) {
      for (String key : new String[] {r.node(), r.nodeClaim()}) {
        if (key != null && r.reason() != null) {
          reasons.computeIfAbsent(key, k -> new HashSet<>()).add(r.reason());
        }
      }
    }
  }

  /** Whether the instance of the node's NodeClaim is live (false for a node no claim names). */
  boolean instanceLive(String node) {
    String claim = claimOfNode.get(node);
    return claim != null && liveClaims.contains(claim);
  }

  /** Whether a running replacement of the node has a reason that is not a budgeted, voluntary one. */
  boolean involuntarilyReplaced(String node) {
    return reasonsOf(node).stream().anyMatch(reason -> !budgetedReasons.contains(reason));
  }

  /** Whether a running replacement of the node has this reason. */
  boolean replacedFor(String node, String reason) {
    return reasonsOf(node).contains(reason);
  }

  private Set<String> reasonsOf(String node) {
    Set<String> all = new HashSet<>(reasons.getOrDefault(node, Set.of()));
    String claim = claimOfNode.get(node);
    if (claim != null) {
      all.addAll(reasons.getOrDefault(claim, Set.of()));
    }
    return all;
  }
}
