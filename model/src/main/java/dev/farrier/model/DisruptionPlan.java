package dev.farrier.model;

import java.util.List;
import java.util.Map;

/**
 * The disruption planner's output: commands to execute now and decisions with their reasons. A reconciler round
 * ({@code PlanDisruptionRequest.Purpose.ROUND}) lists only the decisions to disrupt (a decision for every NodeClaim
 * would make its history grow by hundreds of bytes per node every round); a preview lists every NodeClaim's, up to
 * {@link #MAX_DECISIONS}.
 *
 * @param omittedDecisions NodeClaims whose decision is not listed (0 in plans recorded before the field)
 * @param staticShort     the static NodePools ({@code spec.replicas}) with fewer NodeClaims than their replicas and room
 *                        under {@code limits.nodes} to launch more: the reconciler starts their scale-up
 * @param staticHeld      per static NodePool kept below its replicas by {@code limits.nodes}, why (a Warning Event)
 */
public record DisruptionPlan(long plannedAtMillis, List<DisruptionCommand> commands, List<CandidateDecision> decisions,
    int omittedDecisions, List<String> staticShort, Map<String, String> staticHeld) {
  /** Keeps a preview's result under Temporal's 2 MB payload limit (a decision is about 250 bytes). */
  public static final int MAX_DECISIONS = 5_000;

  public DisruptionPlan {
    commands = List.copyOf(commands);
    decisions = List.copyOf(decisions);
    staticShort = staticShort == null ? List.of() : List.copyOf(staticShort);
    staticHeld = staticHeld == null ? Map.of() : Map.copyOf(staticHeld);
  }

  public DisruptionPlan(long plannedAtMillis, List<DisruptionCommand> commands, List<CandidateDecision> decisions,
      int omittedDecisions) {
    this(plannedAtMillis, commands, decisions, omittedDecisions, List.of(), Map.of());
  }

  /** The same plan with other decisions (the static NodePools' needs kept). */
  public DisruptionPlan withDecisions(List<CandidateDecision> others, int omitted) {
    return new DisruptionPlan(plannedAtMillis, commands, others, omitted, staticShort, staticHeld);
  }

  public DisruptionPlan(long plannedAtMillis, List<DisruptionCommand> commands, List<CandidateDecision> decisions) {
    this(plannedAtMillis, commands, decisions, 0);
  }

  public static DisruptionPlan empty(long at) {
    return new DisruptionPlan(at, List.of(), List.of());
  }

  /** The plan with only its decisions to disrupt, the rest counted as omitted. */
  public DisruptionPlan commandsOnly() {
    List<CandidateDecision> disrupting = decisions.stream().filter(CandidateDecision::disrupt).toList();
    return withDecisions(disrupting, omittedDecisions + decisions.size() - disrupting.size());
  }

  /** The plan with at most {@code max} decisions, those to disrupt first, the rest counted as omitted. */
  public DisruptionPlan atMost(int max) {
    if (decisions.size() <= max) {
      return this;
    }
    List<CandidateDecision> ordered = java.util.stream.Stream.concat(decisions.stream().filter(CandidateDecision::disrupt),
        decisions.stream().filter(d -> !d.disrupt())).limit(max).toList();
    return withDecisions(ordered, omittedDecisions + decisions.size() - max);
  }
}
