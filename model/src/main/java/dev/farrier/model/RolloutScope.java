package dev.farrier.model;

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
 * @param inFlight   NodeClaims whose replacement the rollout has started and not seen close: they count as being
 *                   replaced (against the budgets, and never planned again) even before their taint lands or the
 *                   replacement shows in Temporal's list of running workflows
 * @param inOneStep  the answer also says whether a change freeze holds the NodePools (then plans nothing), and what
 *                   runs on each old node it hands out: the rollout's plans forward, in one activity; false for a
 *                   rollback's, which no freeze holds and no gate watches
 */
public record RolloutScope(String workflowId, List<String> nodePools, int max, List<String> onlyClaims, List<String> inFlight,
    boolean inOneStep) {
  public RolloutScope {
    nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
    onlyClaims = onlyClaims == null ? List.of() : List.copyOf(onlyClaims);
    inFlight = inFlight == null ? List.of() : List.copyOf(inFlight);
  }

  public RolloutScope(String workflowId, List<String> nodePools, int max, List<String> onlyClaims, List<String> inFlight) {
    this(workflowId, nodePools, max, onlyClaims, inFlight, false);
  }

  /** Nothing in flight: a batch, planned once the one before it has closed. */
  public RolloutScope(String workflowId, List<String> nodePools, int max, List<String> onlyClaims) {
    this(workflowId, nodePools, max, onlyClaims, List.of());
  }
}
