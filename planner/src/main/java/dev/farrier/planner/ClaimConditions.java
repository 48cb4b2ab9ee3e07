package dev.farrier.planner;

import java.util.List;

/**
 * The disruption conditions one NodeClaim should carry: each of {@code set} with its status, reason and message, each
 * type in {@code removed} absent. A type in neither is left as it is (the planner could not tell).
 */
public record ClaimConditions(String nodeClaim, List<StatusCondition> set, List<String> removed) {
  public static final String DRIFTED = "Drifted";
  public static final String EXPIRED = "Expired";
  public static final String CONSOLIDATABLE = "Consolidatable";

  public ClaimConditions {
    set = List.copyOf(set);
    removed = List.copyOf(removed);
  }

  /**
   * A condition as it should be ({@code True} or {@code False}); its lastTransitionTime is the writer's business (it
   * moves only with the status).
   */
  public record StatusCondition(String type, boolean status, String reason, String message) {
    /** A True condition. */
    public StatusCondition(String type, String reason, String message) {
      this(type, true, reason, message);
    }
  }
}
