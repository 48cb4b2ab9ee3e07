package dev.farrier.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** Node-level steps of a disruption. Every method is idempotent: it converges the node to a state. */
@ActivityInterface
public interface NodeActivities {
  /** Adds {@code karpenter.sh/disrupted:NoSchedule} (kept if present). */
  @ActivityMethod
  void taintDisrupted(NodeRef request);

  /** Removes {@code karpenter.sh/disrupted:NoSchedule} (done if absent or the node is gone). */
  @ActivityMethod
  void untaintDisrupted(NodeRef request);

  /**
   * Marks the node unschedulable (kept if already so). Returns whether this call cordoned it: false when it was
   * cordoned already (an operator's cordon is not Farrier's to undo) or is gone.
   */
  @ActivityMethod
  Boolean cordon(NodeRef request);

  /** Marks the node schedulable again (done if already so or the node is gone). */
  @ActivityMethod
  void uncordon(NodeRef request);

  /**
   * One pass over the node's pods: evicts each evictable pod through the Eviction API (with the pod's UID as a
   * precondition: 404 and 409 mean it is gone already, 429 means a PDB blocks it). DaemonSet and mirror pods stay.
   * Never fails on a PDB: the block is reported in the result for the workflow to wait and retry.
   */
  @ActivityMethod
  DrainStatus drainStep(DrainRequest request);

  /** Records the operator's abort on the node ({@code farrier.dev/replacement-aborted}) so the planner skips it. */
  @ActivityMethod
  void markAborted(NodeRef request);

  /** Records a Kubernetes Event. Best effort: a failure to record is logged, never fails the workflow. */
  @ActivityMethod
  void recordEvent(EventRequest request);
}
