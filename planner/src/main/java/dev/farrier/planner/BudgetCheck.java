package dev.farrier.planner;

import java.util.List;

/**
 * How many more nodes of one NodePool may be disrupted for one reason now: the smallest of the budgets that apply
 * to the reason (a budget without reasons applies to all), minus the nodes already disrupting. Percentages are of
 * the pool's initialized nodes and round up, as Karpenter's do; a pool without budgets gets Karpenter's default
 * 10%. A budget with a {@code schedule} counts only while it is in force ({@link BudgetSchedule}: for its
 * {@code duration} after each time its cron schedule fires, in UTC); when none of a pool's budgets is in force, no
 * budget limits it, as in Karpenter. A decision names the scheduled budgets that were not in force.
 *
 * @param allowed     how many more may start now (never negative)
 * @param explanation e.g. {@code budget 10% of 5 nodes allows 1, 1 already disrupting}
 */
record BudgetCheck(int allowed, String explanation) {

  static BudgetCheck of(List<DisruptionBudget> budgets, String reason, int nodes, int disrupting, long nowMillis) {
    boolean defaulted = budgets.isEmpty();
    List<DisruptionBudget> all = defaulted ? List.of(DisruptionBudget.DEFAULT) : budgets;
    Integer smallest = null;
    String smallestText = null;
    int notInForce = 0;
    for (DisruptionBudget budget : all) {
      if (!appliesTo(budget, reason)) {
        continue;
      }
      if (!BudgetSchedule.active(budget, nowMillis)) {
        notInForce++;
        continue;
      }
      Integer value = value(budget.nodes(), nodes);
      String text = value == null
          ? "budget \"" + budget.nodes() + "\" (not a count or percentage, read as 0)"
          : (defaulted ? "default budget " : "budget ") + budget.nodes() + (isPercent(budget.nodes()) ? " of " + nodes + " nodes" : "");
      int v = value == null ? 0 : value;
      if (smallest == null || v < smallest) {
        smallest = v;
        smallestText = text;
      }
    }
    StringBuilder explanation = new StringBuilder();
    int allowed;
    if (smallest == null) {
      allowed = Integer.MAX_VALUE;
      explanation.append("no budget in force for ").append(reason);
    } else {
      allowed = Math.max(0, smallest - disrupting);
      explanation.append(smallestText).append(" allows ").append(smallest).append(", ").append(disrupting)
          .append(" already disrupting");
    }
    if (notInForce > 0) {
      explanation.append(" (").append(notInForce).append(notInForce == 1 ? " scheduled budget" : " scheduled budgets")
          .append(" not in force now)");
    }
    return new BudgetCheck(allowed, explanation.toString());
  }

  private static boolean appliesTo(DisruptionBudget budget, String reason) {
    return budget.reasons().isEmpty() || budget.reasons().stream().anyMatch(r -> r.equalsIgnoreCase(reason));
  }

  private static boolean isPercent(String nodes) {
    return nodes != null && nodes.trim().endsWith("%");
  }

  /** The budget's node count for a pool of {@code nodes} nodes; percentages round up. Null when unreadable. */
  static Integer value(String text, int nodes) {
    if (text == null) {
      return null;
    }
    String t = text.trim();
    try {
      if (t.endsWith("%")) {
        int percent = Integer.parseInt(t.substring(0, t.length() - 1).trim());
        return percent < 0 ? null : (int) ((nodes * (long) percent + 99) / 100);
      }
      int n = Integer.parseInt(t);
      return n < 0 ? null : n;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
