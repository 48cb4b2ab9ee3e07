package dev.farrier.planner;

import java.util.List;

/**
 * One entry of a NodePool's {@code spec.disruption.budgets}.
 *
 * @param nodes    {@code "10%"} or {@code "3"}
 * @param reasons  Karpenter's reason names ({@code Drifted}, {@code Underutilized}, {@code Empty}); empty means all
 * @param schedule cron schedule in UTC, null when the budget always applies ({@link BudgetSchedule})
 * @param duration how long a scheduled budget is active after each firing (e.g. {@code 8h}), null when unset
 */
public record DisruptionBudget(String nodes, List<String> reasons, String schedule, String duration) {
  public DisruptionBudget {
    reasons = reasons == null ? List.of() : List.copyOf(reasons);
  }

  /** Karpenter's default when a NodePool lists no budgets. */
  public static final DisruptionBudget DEFAULT = new DisruptionBudget("10%", List.of(), null, null);

  public static DisruptionBudget of(String nodes, String... reasons) {
    return new DisruptionBudget(nodes, List.of(reasons), null, null);
  }
}
