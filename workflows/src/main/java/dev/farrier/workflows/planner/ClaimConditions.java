package dev.farrier.workflows.planner;

import java.util.List;

/**
 * The disruption conditions one NodeClaim should carry: each of {@code set} True with its reason and message, each
 * type in {@code removed} absent. A type in neither is left as it is (the planner could not tell).
 */
public record ClaimConditions(String nodeClaim, List<TrueCondition> set, List<String> removed) {
  public static final String DRIFTED = "Drifted";
  public static final String EXPIRED = "Expired";

  public ClaimConditions {
    set = List.copyOf(set);
    removed = List.copyOf(removed);
  }

  /** A condition that should be True; its lastTransitionTime is the writer's business (it moves only with the status). */
  public record TrueCondition(String type, String reason, String message) {}
}
