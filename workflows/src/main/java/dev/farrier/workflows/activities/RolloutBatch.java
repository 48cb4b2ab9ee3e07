package dev.farrier.workflows.activities;

import java.util.List;

/**
 * The planner's answer to a {@link RolloutScope}.
 *
 * @param commands  the nodes to replace now (at most the scope's {@code max})
 * @param remaining drifted nodes of the scope not done yet, the commands and the nodes being replaced included: the
 *                  rollout is finished when none remain
 * @param held      the first remaining node that is neither a command nor in the scope's {@code inFlight}, with why it
 *                  waits (budget exhausted, do-not-disrupt, being replaced by someone else); empty when none. Only the
 *                  first: the answer is recorded in the rollout's history at every plan, and a list of every waiting
 *                  node of a 500-node fleet made up most of it. Answers recorded before {@code heldCount} list every
 *                  waiting node, the ones in flight included.
 * @param heldCount how many remaining nodes wait, {@code held}'s first among them; 0 in answers recorded before it,
 *                  whose {@code held} is counted instead
 */
public record RolloutBatch(List<DisruptionCommand> commands, int remaining, List<CandidateDecision> held, int heldCount) {
  public RolloutBatch {
    commands = commands == null ? List.of() : List.copyOf(commands);
    held = held == null ? List.of() : List.copyOf(held);
  }

  /** An answer as recorded before {@code heldCount}: {@code held} lists every waiting node, and is what counts them. */
  public RolloutBatch(List<DisruptionCommand> commands, int remaining, List<CandidateDecision> held) {
    this(commands, remaining, held, 0);
  }
}
