package dev.farrier.workflows.activities;

import java.util.List;

/**
 * The planner's answer to a {@link RolloutScope}.
 *
 * @param commands  the nodes to replace now (at most the scope's {@code max})
 * @param remaining drifted nodes of the scope not done yet, the commands and the nodes being replaced included: the
 *                  rollout is finished when none remain
 * @param held      why each remaining node that is not a command waits (budget exhausted, do-not-disrupt, being
 *                  replaced)
 */
public record RolloutBatch(List<DisruptionCommand> commands, int remaining, List<CandidateDecision> held) {
  public RolloutBatch {
    commands = commands == null ? List.of() : List.copyOf(commands);
    held = held == null ? List.of() : List.copyOf(held);
  }
}
