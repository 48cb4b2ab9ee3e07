package dev.farrier.workflows.activities;

import java.util.List;

/**
 * What a fleet upgrade asks the disruption planner for: the next drifted nodes of the NodePools it owns, within their
 * disruption budgets and {@code do-not-disrupt}, as ordinary drift would get them.
 *
 * @param workflowId the rollout's {@code upgrade/...} id; only NodePools whose {@code farrier.dev/rollout} names it
 *                   are planned
 * @param nodePools  the NodePools of the rollout
 * @param max        at most this many commands (the batch size)
 * @param onlyClaims when not empty, only these NodeClaims are candidates (a rollback replaces only the nodes the
 *                   rollout launched)
 */
public record RolloutScope(String workflowId, List<String> nodePools, int max, List<String> onlyClaims) {
  public RolloutScope {
    nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
    onlyClaims = onlyClaims == null ? List.of() : List.copyOf(onlyClaims);
  }
}
