package dev.farrier.workflows.activities;

import java.util.List;

/** The disruption planner's output: commands to execute now and a decision with its reason for every NodeClaim. */
public record DisruptionPlan(long plannedAtMillis, List<DisruptionCommand> commands, List<CandidateDecision> decisions) {
  public DisruptionPlan {
    commands = List.copyOf(commands);
    decisions = List.copyOf(decisions);
  }

  public static DisruptionPlan empty(long at) {
    return new DisruptionPlan(at, List.of(), List.of());
  }
}
