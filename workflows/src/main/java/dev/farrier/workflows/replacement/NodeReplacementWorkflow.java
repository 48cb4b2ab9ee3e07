package dev.farrier.workflows.replacement;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * {@code disrupt/<nodeclaim>}: taint disrupted, launch the replacement and wait until it is initialized, cordon,
 * drain through the Eviction API, terminate the instance, wait until it is terminated, delete Node and NodeClaim.
 * Operators pause, resume and abort it from the Temporal UI or the {@code farrier} CLI.
 */
@WorkflowInterface
public interface NodeReplacementWorkflow {
  @WorkflowMethod
  ReplacementResult replace(ReplacementInput input);

  /** Stops before the next step (a running step finishes). */
  @SignalMethod
  void pause();

  @SignalMethod
  void resume();

  /**
   * Rolls back: untaint, uncordon (if this workflow cordoned), remove the replacement if it is still launching (an
   * initialized one is kept as capacity), and mark the node so the planner
   * leaves it alone. Ignored once the instance is being terminated (past the point of no return).
   */
  @SignalMethod
  void abort(String reason);

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
