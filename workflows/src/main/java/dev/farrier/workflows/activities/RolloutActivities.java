package dev.farrier.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import java.util.List;

/**
 * What a fleet upgrade does to the cluster besides replacing nodes: take and give back its NodePools, switch their
 * EC2NodeClass's images, and look at the health of the nodes and workloads it moved. The batches themselves come from
 * {@link PlanningActivities#planRollout} and run as ordinary {@code disrupt/<nodeclaim>} replacements.
 */
@ActivityInterface
public interface RolloutActivities {
  /**
   * Validates the rollout and takes its NodePools ({@code farrier.dev/rollout}): every NodePool exists, they share one
   * EC2NodeClass and are all of its NodePools, the target resolves to an image for every architecture the class has,
   * and no other running rollout owns one of them. Fails with {@code InvalidUpgrade} or {@code RolloutConflict} (not
   * retried), saying what to do. Taking NodePools this rollout already owns is a no-op (a retried attempt).
   */
  @ActivityMethod
  RolloutClaim claim(ClaimRolloutRequest request);

  /** Writes the EC2NodeClass's {@code amiSelectorTerms} (and, going forward, the previous terms as an annotation). */
  @ActivityMethod
  void switchImages(SwitchImagesRequest request);

  /** Waits (heartbeating) until the EC2NodeClass's status lists exactly the expected images. */
  @ActivityMethod
  void awaitImages(SwitchImagesRequest request);

  /** The health of the new nodes and of the moved workloads' pods, for the rollout's gate. Reads only. */
  @ActivityMethod
  HealthObservation observeHealth(HealthRequest request);

  /**
   * The replacements of {@code request} that have closed, with their results; waits (heartbeating) until at least one
   * has, or {@code waitSeconds} have passed (then none). A rolling rollout follows with it the replacements it carried
   * across continue-as-new: they were its children in the run before, so their results no longer come to it.
   */
  @ActivityMethod
  List<ClosedReplacement> awaitClosed(FollowRequest request);

  /**
   * The nodes of the NodePools that do not run one of the target images, read from the cluster (each NodeClaim's
   * {@code status.imageID}), with what holds each. NodeClaims being deleted are leaving, and those not launched yet (no
   * image) launch on what the class resolves to now, the target: neither is listed. A rollout succeeds only when this
   * is empty: its end is checked against the fleet, not against a count of what it replaced.
   */
  @ActivityMethod
  List<OffTargetNode> offTarget(TargetCheckRequest request);

  /**
   * Gives the NodePools back: removes {@code farrier.dev/rollout} where it names this rollout, and from the
   * EC2NodeClass that annotation and the previous terms it kept (the next rollout records its own).
   */
  @ActivityMethod
  void release(ReleaseRolloutRequest request);
}
