package dev.farrier.workflows.activities;

import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.ReplacementPlan;
import dev.farrier.model.RolloutBatch;
import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * Read the cluster and the cloud, then decide with the pure planners in {@code dev.farrier.planner}.
 * None of these mutate anything but the FailedScheduling Event on pods that fit nowhere (deduplicated per pod and
 * reason) and the NodeClaims' Drifted, Expired and Consolidatable conditions (written toward a target), so retries are
 * always safe.
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
   * Drift (AMI and NodePool hash), expiry, emptiness and deletion candidates, within each NodePool's disruption budget;
   * keeps the Drifted, Expired and Consolidatable conditions of the NodeClaims up to date on the way. A
   * {@link PlanDisruptionRequest.Purpose#PREVIEW} writes nothing and returns every decision; a round returns only the
   * decisions to disrupt ({@link PlanDisruptionRequest#purpose()}).
   */
  @ActivityMethod
  DisruptionPlan planDisruption(PlanDisruptionRequest request);

  /**
   * A fleet upgrade's next batch ({@code request.rollout()}): the drifted nodes of the NodePools it owns, under the
   * same budgets, {@code do-not-disrupt} and ownership rules as {@link #planDisruption}, and how many remain.
   */
  @ActivityMethod
  RolloutBatch planRollout(PlanDisruptionRequest request);

  /**
   * Plans again as {@link #planDisruption} would, counting the caller (the claim's own replacement, not yet past its
   * first step) as not running, and answers whether the claim is still disrupted for the same reason, or why not.
   * How a consolidation is validated before it touches the node; writes nothing.
   */
  @ActivityMethod
  CandidateDecision recheckDisruption(RecheckDisruptionRequest request);
}
