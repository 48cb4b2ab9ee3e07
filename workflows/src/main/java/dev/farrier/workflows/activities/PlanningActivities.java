package dev.farrier.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * Read the cluster and the cloud, then decide with the pure planners in {@code dev.farrier.workflows.planner}.
 * None of these mutate anything, so retries are always safe.
 */
@ActivityInterface
public interface PlanningActivities {
  /** Which new NodeClaims the given pending pods need. Pods that are no longer pending are ignored. */
  @ActivityMethod
  ProvisioningPlan planProvisioning(PlanProvisioningRequest request);

  /** A replacement NodeClaim for the reschedulable pods on a node about to be disrupted. */
  @ActivityMethod
  ReplacementPlan planReplacement(PlanReplacementRequest request);

  /** Drift (AMI and NodePool hash) and deletion candidates, within each NodePool's disruption budget. */
  @ActivityMethod
  DisruptionPlan planDisruption(PlanDisruptionRequest request);
}
