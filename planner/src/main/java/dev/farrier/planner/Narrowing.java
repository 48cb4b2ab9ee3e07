package dev.farrier.planner;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What topology (spread, pod affinity and anti-affinity, and other pods' anti-affinity) allows one pod right now:
 * per zone-like key the domains it may go to (a new claim is pinned to one of them), and per-node rules for
 * {@code kubernetes.io/hostname}.
 *
 * @param allowed      per topology key (not hostname), the domains the pod may go to
 * @param balanceBy    per key in {@code allowed}, the spread group whose emptiest domain a new claim is pinned to;
 *                     absent when only affinity narrows the key (then the cheapest domain is taken)
 * @param requirements {@code allowed} as node requirements, named after the constraints that made them
 * @param hostRules    rules checked per node or claim
 * @param failure      why no domain at all is left, or null
 */
record Narrowing(
    Map<String, Set<String>> allowed,
    Map<String, TopologyGroup> balanceBy,
    Requirements requirements,
    List<HostRule> hostRules,
    String failure) {
  static final Narrowing NONE = new Narrowing(Map.of(), Map.of(), Requirements.NONE, List.of(), null);

  boolean allowsHost(String host) {
    for (HostRule rule : hostRules) {
      if (!rule.allows(host)) {
        return false;
      }
    }
    return true;
  }

  /** Whether a rule keeps the pod off {@code host} for the rest of the plan ({@link HostRule#refusesForGood}). */
  boolean refusesHostForGood(String host) {
    for (HostRule rule : hostRules) {
      if (rule.refusesForGood(host)) {
        return true;
      }
    }
    return false;
  }

  /** The first rule that keeps the pod off a node that does not exist yet, or null. */
  HostRule blocksNewNode() {
    for (HostRule rule : hostRules) {
      if (!rule.allowsNewNode()) {
        return rule;
      }
    }
    return null;
  }
}
