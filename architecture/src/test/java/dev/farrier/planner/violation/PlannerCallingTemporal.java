package dev.farrier.planner.violation;

import io.temporal.workflow.Workflow;

/** Deliberately breaks "the planner is pure" for RulesCatchViolationsTest; never part of a production jar. */
public final class PlannerCallingTemporal {
  public long now() {
    return Workflow.currentTimeMillis();
  }
}
