package dev.farrier.workflows.activities;

import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.RolloutScope;

/**
 * Input of {@link PlanningActivities#planDisruption}.
 *
 * @param rollout null for the reconciler's round; a fleet upgrade's batch otherwise ({@link PlanningActivities#planRollout})
 * @param frozen  the change freezes in force: NodePool (or {@code *} for the cluster) to the freeze's description;
 *                their voluntary disruptions are held
 * @param nodeRepair node repair on ({@code ReconcilerSettings.nodeRepair}, off by default): nodes unhealthy past their
 *                toleration are replaced ({@code planner.Repair})
 * @param purpose what the plan is for; null (requests recorded before the field) plans as a round that lists every
 *                decision
 */
public record PlanDisruptionRequest(String cluster, RolloutScope rollout, java.util.Map<String, String> frozen, boolean nodeRepair,
    Purpose purpose) {
  /** What a plan is for. */
  public enum Purpose {
    /**
     * The reconciler's round: its commands are executed and the NodeClaims' Drifted/Expired/Consolidatable conditions,
     * the DisruptionBlocked Events and the metrics are written; only the decisions to disrupt come back.
     */
    ROUND,
    /** {@code farrier plan}: every decision (at most {@link DisruptionPlan#MAX_DECISIONS}), and nothing written. */
    PREVIEW
  }

  public PlanDisruptionRequest {
    frozen = frozen == null ? java.util.Map.of() : java.util.Map.copyOf(frozen);
  }

  public PlanDisruptionRequest(String cluster, RolloutScope rollout, java.util.Map<String, String> frozen, boolean nodeRepair) {
    this(cluster, rollout, frozen, nodeRepair, null);
  }

  /** Node repair off, as by default. */
  public PlanDisruptionRequest(String cluster, RolloutScope rollout, java.util.Map<String, String> frozen) {
    this(cluster, rollout, frozen, false);
  }

  public PlanDisruptionRequest(String cluster) {
    this(cluster, null, null);
  }

  public PlanDisruptionRequest(String cluster, RolloutScope rollout) {
    this(cluster, rollout, null);
  }
}
