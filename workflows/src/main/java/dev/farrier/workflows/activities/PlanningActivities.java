package dev.farrier.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * Read the cluster and the cloud, then decide with the pure planners in {@code dev.farrier.workflows.planner}.
 * None of these mutate anything but the FailedScheduling Event on pods that fit nowhere (deduplicated per pod and
 * reason) and the NodeClaims' Drifted and Expired conditions (written toward a target), so retries are always safe.
 */
@ActivityInterface
public interface PlanningActivities {
  /**
   * Where the given pending pods go: existing nodes and in-flight claims with room, new NodeClaims, or nowhere (with
   * the reason, also recorded as an Event on the pod). Pods that are no longer pending are ignored.
   */
  @ActivityMethod
  ProvisioningPlan planProvisioning(PlanProvisioningRequest request);

  /** A replacement NodeClaim for the reschedulable pods on a node about to be disrupted. */
  @ActivityMethod
  ReplacementPlan planReplacement(PlanReplacementRequest request);

  /**
   * Drift (AMI and NodePool hash), expiry and deletion candidates, within each NodePool's disruption budget; keeps
   * the Drifted and Expired conditions of the NodeClaims up to date on the way.
   */
  @ActivityMethod
  DisruptionPlan planDisruption(PlanDisruptionRequest request);

  /**
   * A fleet upgrade's next batch ({@code request.rollout()}): the drifted nodes of the NodePools it owns, under the
   * same budgets, {@code do-not-disrupt} and ownership rules as {@link #planDisruption}, and how many remain.
   */
  @ActivityMethod
  RolloutBatch planRollout(PlanDisruptionRequest request);
}
