package dev.farrier.workflows.activities;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * Node-level steps of a disruption. Every method is idempotent: it converges the node to a state. A step records the
 * Events of its request ({@link NodeRef#events()}) once it has done its work, best effort: an Event that cannot be
 * recorded is logged and never fails the step (a retried step records it again, which bumps the Event's count).
 */
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
   * Never fails on a PDB: the block is reported in the result for the workflow to wait and retry. Before it reports,
   * the pass waits a few seconds at most for the pods it evicted and those already terminating to be gone, so pods
   * that leave at once are not reported as remaining. With {@link DrainRequest#recordEvictions()} it records an Evicted
   * Event per pod it evicted.
   */
  @ActivityMethod
  DrainStatus drainStep(DrainRequest request);

  /**
   * Surges the pods a PodDisruptionBudget keeps on the draining node (one call for a pass's pods), each when its workload opted in
   * ({@code farrier.dev/surge}) and can surge safely: a rollout restart of its Deployment (the pod template's
   * {@code kubectl.kubernetes.io/restartedAt}, as {@code kubectl rollout restart} writes it), so the Deployment
   * controller starts the new pod elsewhere first and removes the old one once the new one is Ready. Never evicts or
   * deletes the pod. Idempotent: the restart marks the Deployment with the pod's UID ({@code farrier.dev/surged-pod}),
   * so a retry, a later pass or another worker reports the surge already started instead of restarting it again.
   * Records SurgeStarted, SurgeRefused or SurgeStalled on the Deployment and the Node when the answer differs from
   * {@link SurgeRequest#previous()} (a surge still in flight records nothing again). Each call to the API server is
   * bounded (5 s) with a heartbeat between calls; a call that outlives its StartToClose timeout (the API server slow
   * on many reads) is retried, which the mark makes safe. What retrying cannot fix (a 403, a malformed request) is a
   * refusal with its reason. A call that has run for a while stops starting surges and answers for the pods it got to.
   */
  @ActivityMethod
  SurgeAnswers surge(SurgePass pass);

  /** Records the operator's abort on the node ({@code farrier.dev/replacement-aborted}) so the planner skips it. */
  @ActivityMethod
  void markAborted(NodeRef request);

  /**
   * Records Kubernetes Events that belong to no step (a blocked drain, an abort, a failure), all in one activity. Best
   * effort, each on its own: one that cannot be recorded is logged and the others are still recorded.
   */
  @ActivityMethod
  void recordEvents(RecordEventsRequest request);
}
