package dev.farrier.workflows.replacement;

import dev.farrier.model.ReplacementResult;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * {@code disrupt/<nodeclaim>}: taint disrupted, launch the replacement and wait until it is initialized, cordon,
 * drain through the Eviction API, terminate the instance, wait until it is terminated, delete Node and NodeClaim.
 *
 * <p>Operators act on it with Updates ({@code Pause}, {@code Resume}, {@code Abort}, {@code Retry}, {@code ForceDrain},
 * {@code Approve}), from the {@code farrier} CLI, the Temporal UI or the {@code temporal} CLI. Each is validated first:
 * an action that makes no sense in the replacement's state is refused with a message saying why, and nothing
 * changes. Two signals come from Farrier itself: {@code interrupted} from the interruption workflow, and
 * {@code rolloutAborted} from the rollout that started the replacement.
 */
@WorkflowInterface
public interface NodeReplacementWorkflow {
  String PAUSE = "Pause";
  String RESUME = "Resume";
  String ABORT = "Abort";
  String RETRY = "Retry";
  String FORCE_DRAIN = "ForceDrain";
  String APPROVE = "Approve";
  /**
   * The signal a replacement sends its cluster's reconciler as it closes (its NodeClaim's name), so that a reconciler
   * run that did not start it, one after a continue-as-new, also refills the budget slot it frees.
   */
  String REPLACEMENT_CLOSED_SIGNAL = "replacementClosed";
  /** The signal a rollout sends the replacements it started when it is aborted ({@link #rolloutAborted}). */
  String ROLLOUT_ABORTED_SIGNAL = "rolloutAborted";

  @WorkflowMethod
  ReplacementResult replace(ReplacementInput input);

  /** Holds before the next step (a running step finishes; a drain holds between passes). */
  @UpdateMethod(name = PAUSE)
  String pauseReplacement(OperatorRequest request);

  @UpdateValidatorMethod(updateName = PAUSE)
  void validatePause(OperatorRequest request);

  @UpdateMethod(name = RESUME)
  String resumeReplacement(OperatorRequest request);

  @UpdateValidatorMethod(updateName = RESUME)
  void validateResume(OperatorRequest request);

  /**
   * Rolls back: untaint, uncordon (if this workflow cordoned), remove the replacement if it is still launching (an
   * initialized one is kept as capacity), and mark the node so the planner leaves it alone. Refused once the
   * instance is being terminated (past the point of no return). A reason is required.
   */
  @UpdateMethod(name = ABORT)
  String abortReplacement(OperatorRequest request);

  @UpdateValidatorMethod(updateName = ABORT)
  void validateAbort(OperatorRequest request);

  /** Runs a failed step again (phase AwaitingRetry): before the point of no return the replacement starts over. */
  @UpdateMethod(name = RETRY)
  String retryReplacement(OperatorRequest request);

  @UpdateValidatorMethod(updateName = RETRY)
  void validateRetry(OperatorRequest request);

  /**
   * Deletes the pods still on the node past their PodDisruptionBudgets and do-not-disrupt annotations, as an
   * expired terminationGracePeriod does. Only while draining; a reason is required and recorded as an Event.
   */
  @UpdateMethod(name = FORCE_DRAIN)
  String forceDrain(OperatorRequest request);

  @UpdateValidatorMethod(updateName = FORCE_DRAIN)
  void validateForceDrain(OperatorRequest request);

  /** Lets a replacement that waits for a person (phase AwaitingApproval) cordon and drain the old node. */
  @UpdateMethod(name = APPROVE)
  String approve(OperatorRequest request);

  @UpdateValidatorMethod(updateName = APPROVE)
  void validateApprove(OperatorRequest request);

  /**
   * The rollout that started this replacement ({@link ReplacementInput#owner}) was aborted: roll back as {@code Abort}
   * does, but give the node back without the {@code farrier.dev/replacement-aborted} mark, which is an operator's hold
   * on one node (left by a rollout's abort, it made the next rollout skip the node). Ignored (and logged) once past the
   * point of no return or when an abort is already rolling it back; a replacement no rollout owns rolls back marked, as
   * for an operator's {@code Abort}.
   */
  @SignalMethod(name = ROLLOUT_ABORTED_SIGNAL)
  void rolloutAborted(String reason);

  /**
   * The node is being interrupted (spot interruption, scheduled change, instance stopping): drain it now and let the
   * replacement launch in parallel instead of waiting for it to initialize. Clears a pause; PodDisruptionBudgets are
   * still respected. Ignored once the instance is being terminated, and when already interrupted.
   */
  @SignalMethod
  void interrupted(Interruption interruption);

  @QueryMethod
  ReplacementProgress progress();
}
