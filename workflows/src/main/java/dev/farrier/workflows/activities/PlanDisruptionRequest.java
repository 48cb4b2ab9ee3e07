package dev.farrier.workflows.activities;

/**
 * Input of {@link PlanningActivities#planDisruption}.
 *
 * @param rollout null for the reconciler's round; a fleet upgrade's batch otherwise ({@link PlanningActivities#planRollout})
 */
public record PlanDisruptionRequest(String cluster, RolloutScope rollout) {
  public PlanDisruptionRequest(String cluster) {
    this(cluster, null);
  }
}
