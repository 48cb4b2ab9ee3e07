package dev.farrier.workflows.replacement;

import static dev.farrier.workflows.replacement.ReplacementPhase.DONE;
import static dev.farrier.workflows.replacement.ReplacementRun.LOG;
import static dev.farrier.workflows.replacement.ReplacementRun.OUTCOME_DONE;
import static dev.farrier.workflows.replacement.ReplacementRun.OUTCOME_INVALIDATED;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.ReplacementResult;
import dev.farrier.workflows.ReconcilerSignals;
import dev.farrier.workflows.StructuredLog;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;

/**
 * Replaces one node. The script ({@link #replace}, then {@link #runSteps}) reads top to bottom: check a consolidation
 * again, taint, launch the replacement ({@link ReplacementLaunch}), wait for approval if required, cordon, drain
 * ({@link Drain}), terminate, finalize ({@link ReplacementSteps}); a failure or an abort ends in {@link Rollback}.
 * Everything the workflow knows is one {@link ReplacementRun} around one {@link ReplacementState}; the drain's
 * decisions are {@link DrainPolicy}'s; the operators' Updates are {@link OperatorActions}.
 *
 * <p>Operators steer it with validated Updates (see {@link NodeReplacementWorkflow}). {@code Abort} is honoured until
 * Terminating starts and rolls back what was done: the taint and (if this workflow set it) the cordon are removed, a
 * replacement whose launch had not completed is cancelled (its own saga terminates the instance and deletes the
 * claim), an initialized replacement is kept as ordinary capacity, and the node is marked so the planner leaves it
 * alone. A step that fails is not the end: the node is given back (before the point of no return) and the
 * replacement waits in AwaitingRetry for an operator's {@code Retry} or {@code Abort}, for at most
 * {@link Rollback#RETRY_WINDOW} (past the point of no return: {@link Rollback#RETRY_WINDOW_PAST_NO_RETURN}), then
 * fails as before.
 *
 * <p>An interrupted node (input {@link ReplacementInput#interruption()} or signal {@code interrupted}) is going away
 * in minutes whatever happens: from then on the workflow does not wait for its replacement to initialize, it cordons
 * and drains at once (PodDisruptionBudgets still hold, passes without backoff) while the launch proceeds in parallel;
 * a replacement that cannot be planned or fails to launch no longer stops the drain, and a pause is lifted.
 *
 * <p>A forceful expiry ({@link DisruptionCommand#forceful()}, Karpenter v1's expiration) drains the same way, from
 * the start: cordoned and drained at once while the replacement (only when pods need one) launches in parallel, no
 * approval waited for, and nothing about the replacement stops the drain. PDBs and do-not-disrupt pods hold until the
 * terminationGracePeriod, which counts from the start of the disruption (Karpenter counts it from the NodeClaim's
 * deletion), not from a retried drain. Unlike an interruption it keeps the drain's backoff, holds pods without a
 * controller and can be paused: the node is not going away by itself. A node repair is a forceful command too, with a
 * terminationGracePeriod of 0, so its pods are deleted past PDBs from the first pass, as Karpenter's repair does.
 *
 * <p>A consolidation ({@link DisruptionCommand#consolidation()}) is checked again before any step: after
 * {@link ReplacementSteps#CONSOLIDATION_RECHECK_DELAY} the planner is asked whether it still stands, and the workflow
 * ends {@value ReplacementRun#OUTCOME_INVALIDATED}, the node untouched, when it does not.
 *
 * <p>Each step records the Events it causes (the taint DisruptionStarted and DisruptionTainted, the cordon Cordoned, the
 * drain pass an Evicted per pod, the termination Terminated, the final delete DisruptionCompleted); the others are one
 * {@code recordEvents} activity per call. The instance is terminated and waited for in one activity, the Node and
 * NodeClaim deleted in one.
 */
public class NodeReplacementWorkflowImpl implements NodeReplacementWorkflow {
  /** One step of the replacement: all have this shape, over the one {@link ReplacementRun}. */
  @FunctionalInterface
  private interface Step {
    void run();
  }

  private final ReplacementRun run = new ReplacementRun();
  private final OperatorActions operator = new OperatorActions(run);
  private ReplacementSteps steps;
  private Drain drain;
  private Rollback rollback;

  @Override
  public ReplacementResult replace(ReplacementInput input) {
    boolean resumed = run.start(input);
    ReplacementLaunch launch = run.newLaunch();
    steps = new ReplacementSteps(run, launch);
    drain = new Drain(run, launch);
    rollback = new Rollback(run, launch);
    run.upsertIdentity();
    if (!resumed && run.command().consolidation() && !steps.consolidationStillStands()) {
      return closed(run.result(OUTCOME_INVALIDATED));
    }
    if (!resumed) {
      steps.announce();
    }
    boolean drainNext = resumed;
    while (true) {
      try {
        try {
          runSteps(drainNext);
          return closed(afterHandlers(finish()));
        } catch (TemporalFailure failure) {
          RuntimeException failed = rollback.afterFailure(failure);
          if (!rollback.awaitRetry(failed)) {
            tellReconcilerClosed();
            throw failed;
          }
          drainNext = false;
        }
      } catch (AbortRequested abort) {
        return closed(afterHandlers(rollback.afterAbort()));
      }
    }
  }

  /**
   * The steps, in order. A run that continues a drain starts at the drain; a retry before the point of no return
   * starts over; past it only the last steps run again.
   */
  private void runSteps(boolean drainNext) {
    List<Step> script = new ArrayList<>();
    if (!run.state().pastPointOfNoReturn()) {
      if (!drainNext) {
        script.addAll(List.of(steps::taint, steps::launch, steps::awaitApproval, steps::cordon));
      }
      script.addAll(List.of(drain::run, steps::drained));
    }
    // From here the node is going away: an abort can no longer give it back.
    script.addAll(List.of(steps::terminate, steps::deleteNodeAndClaim));
    script.forEach(Step::run);
  }

  private ReplacementResult finish() {
    run.enter(DONE);
    DisruptionCommand command = run.command();
    StructuredLog.info(LOG, "disrupted nodeclaim", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
        "nodepool", command.nodePool(), "instance", command.instanceId(), "reason", command.reason(), "replacement",
        run.state().replacementName(), "evicted", run.state().evicted().size());
    return run.result(OUTCOME_DONE);
  }

  /**
   * Completes only once every Update handler has finished: a handler still recording its Events (a force-drain whose
   * pass already emptied the node) would otherwise fail with "the Workflow completed before the Update completed".
   */
  private static ReplacementResult afterHandlers(ReplacementResult result) {
    Workflow.await(Workflow::isEveryHandlerFinished);
    return result;
  }

  private ReplacementResult closed(ReplacementResult result) {
    tellReconcilerClosed();
    return result;
  }

  /**
   * Best effort, as the replacement closes: its budget slot is free. A replacement with no reconciler running (gone, or
   * not started yet) has nobody to tell; the reconciler's next planning round, at most its interval later, sees the slot.
   */
  private void tellReconcilerClosed() {
    String claim = run.command().nodeClaim();
    ReconcilerSignals.tell(run.cluster(), NodeReplacementWorkflow.REPLACEMENT_CLOSED_SIGNAL, claim, "nodeclaim", claim);
  }

  // Operator actions, handled by OperatorActions.

  @Override
  public void validatePause(OperatorRequest request) {
    operator.validatePause();
  }

  @Override
  public String pauseReplacement(OperatorRequest request) {
    return operator.pause(request);
  }

  @Override
  public void validateResume(OperatorRequest request) {
    operator.validateResume();
  }

  @Override
  public String resumeReplacement(OperatorRequest request) {
    return operator.resume(request);
  }

  @Override
  public void validateAbort(OperatorRequest request) {
    operator.validateAbort(request);
  }

  @Override
  public String abortReplacement(OperatorRequest request) {
    return operator.abort(request);
  }

  @Override
  public void validateRetry(OperatorRequest request) {
    operator.validateRetry();
  }

  @Override
  public String retryReplacement(OperatorRequest request) {
    return operator.retry(request);
  }

  @Override
  public void validateForceDrain(OperatorRequest request) {
    operator.validateForceDrain(request);
  }

  @Override
  public String forceDrain(OperatorRequest request) {
    return operator.forceDrain(request);
  }

  @Override
  public void validateApprove(OperatorRequest request) {
    operator.validateApprove();
  }

  @Override
  public String approve(OperatorRequest request) {
    return operator.approve(request);
  }

  @Override
  public void rolloutAborted(String reason) {
    operator.rolloutAborted(reason);
  }

  @Override
  public void interrupted(Interruption notice) {
    operator.interrupted(notice);
  }

  @Override
  public ReplacementProgress progress() {
    return operator.progress();
  }
}
