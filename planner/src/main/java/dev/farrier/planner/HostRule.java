package dev.farrier.planner;

/**
 * A per-node topology rule (topology key {@code kubernetes.io/hostname}): checked against each node or planned
 * claim the pod might join, since every node is its own domain.
 *
 * @param kind           what the rule is
 * @param group          the pods it counts (for {@link Kind#INVERSE}, the owners of a required anti-affinity term
 *                       that selects this pod)
 * @param maxSkew        for {@link Kind#SPREAD}: at most this many matching pods per node (a new node is always a
 *                       domain with none, so the global minimum is 0)
 * @param selfSelecting  for {@link Kind#AFFINITY}: the pod matches its own term, so the first one may go anywhere
 * @param description    how a reason names the rule
 */
record HostRule(Kind kind, TopologyGroup group, int maxSkew, boolean selfSelecting, String description) {
  enum Kind { SPREAD, AFFINITY, ANTI_AFFINITY, INVERSE }

  /** Whether a pod may join the node or claim named {@code host}. */
  boolean allows(String host) {
    int count = group.count(host);
    return switch (kind) {
      case SPREAD -> count + 1 <= maxSkew;
      case AFFINITY -> count > 0 || (group.total() == 0 && selfSelecting);
      case ANTI_AFFINITY, INVERSE -> count == 0;
    };
  }

  /**
   * Whether the rule keeps the pod off {@code host} now and for the rest of the plan: counts only grow, so a node
   * full for a spread or holding a repelling pod stays so; an affinity may still be met once a matching pod lands.
   */
  boolean refusesForGood(String host) {
    return kind != Kind.AFFINITY && !allows(host);
  }

  /** Whether a pod may go to a node that does not exist yet (no pods at all). */
  boolean allowsNewNode() {
    return kind != Kind.AFFINITY || (group.total() == 0 && selfSelecting);
  }
}
