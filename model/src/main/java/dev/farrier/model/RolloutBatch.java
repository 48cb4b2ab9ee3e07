package dev.farrier.model;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The planner's answer to a {@link RolloutScope}.
 *
 * @param commands  the nodes to replace now (at most the scope's {@code max})
 * @param remaining drifted nodes of the scope not done yet, the commands and the nodes being replaced included: the
 *                  rollout is finished when none remain
 * @param held      the first remaining node that is neither a command nor in the scope's {@code inFlight}, with why it
 *                  waits (budget exhausted, do-not-disrupt, being replaced by someone else); empty when none. Only the
 *                  first: the answer is recorded in the rollout's history at every plan, and a list of every waiting
 *                  node of a 500-node fleet made up most of it.
 * @param heldCount how many remaining nodes wait, {@code held}'s first among them
 * @param frozen    asked with {@link RolloutScope#inOneStep}: the change freeze holding the rollout, described (and
 *                  nothing planned); null when none does, and in answers to the other scopes
 * @param workloads asked with {@link RolloutScope#inOneStep}: by command's NodeClaim, the workloads of the pods on its
 *                  old node (what the replacement's gate watches), DaemonSets left out; empty otherwise
 */
public record RolloutBatch(List<DisruptionCommand> commands, int remaining, List<CandidateDecision> held, int heldCount,
    String frozen, Map<String, List<WorkloadRef>> workloads) {
  public RolloutBatch {
    commands = commands == null ? List.of() : List.copyOf(commands);
    held = held == null ? List.of() : List.copyOf(held);
    workloads = workloads == null ? Map.of() : Map.copyOf(workloads);
  }

  public RolloutBatch(List<DisruptionCommand> commands, int remaining, List<CandidateDecision> held, int heldCount) {
    this(commands, remaining, held, heldCount, null, Map.of());
  }

  /** An answer whose {@code held} lists every waiting node (a test's): their count is its size. */
  public RolloutBatch(List<DisruptionCommand> commands, int remaining, List<CandidateDecision> held) {
    this(commands, remaining, held, held == null ? 0 : held.size());
  }

  /** The answer while a change freeze holds the rollout: nothing planned. */
  public static RolloutBatch frozenBy(String freeze) {
    return new RolloutBatch(List.of(), 0, List.of(), 0, freeze, Map.of());
  }

  /** This answer with what runs on each command's node. */
  public RolloutBatch withWorkloads(Map<String, List<WorkloadRef>> byClaim) {
    return new RolloutBatch(commands, remaining, held, heldCount, frozen, byClaim);
  }

  /** What runs on the old nodes of these NodeClaims, each workload once, in a stable order. */
  public List<WorkloadRef> workloadsOf(Collection<String> nodeClaims) {
    return nodeClaims.stream().flatMap(c -> workloads.getOrDefault(c, List.of()).stream()).distinct()
        .sorted(Comparator.comparing(WorkloadRef::toString)).toList();
  }
}
