package dev.farrier.workflows.replacement;

import static dev.farrier.workflows.replacement.ReplacementPhase.ABORTED;
import static dev.farrier.workflows.replacement.ReplacementPhase.AWAITING_RETRY;
import static dev.farrier.workflows.replacement.ReplacementPhase.FAILED;
import static dev.farrier.workflows.replacement.ReplacementPhase.ROLLING_BACK;
import static dev.farrier.workflows.replacement.ReplacementRun.LOG;
import static dev.farrier.workflows.replacement.ReplacementRun.OUTCOME_ABORTED;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.ReplacementResult;
import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.Waits;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.List;

/**
 * How a replacement gives the node back: after an accepted abort ({@link #afterAbort}), and after a failed step
 * ({@link #afterFailure}, then {@link #awaitRetry}). Before the point of no return the taint and this workflow's
 * cordon are removed; past it nothing can be undone and only the last steps run again.
 */
final class Rollback {
  /** Failures this workflow raises itself: their message and type are the workflow's result as they are. */
  private static final List<String> OWN_FAILURES =
      List.of(FailureTypes.REPLACEMENT_LAUNCH_FAILED, FailureTypes.NO_REPLACEMENT_POSSIBLE);

  /** How long a step that failed before the point of no return waits for a Retry before the replacement fails. */
  static final Duration RETRY_WINDOW = Duration.ofMinutes(10);
  /** Past the point of no return the node is drained and half gone: a person has a day to retry the last steps. */
  static final Duration RETRY_WINDOW_PAST_NO_RETURN = Duration.ofHours(24);

  private final ReplacementRun run;
  private final ReplacementLaunch launch;

  Rollback(ReplacementRun run, ReplacementLaunch launch) {
    this.run = run;
    this.launch = launch;
  }

  /**
   * Rolls back an accepted abort: a launch still running is cancelled, the node's changes undone and (unless the
   * rollout that owns it aborted) the node marked so the planner leaves it alone; an initialized replacement is kept.
   */
  ReplacementResult afterAbort() {
    DisruptionCommand command = run.command();
    String why = run.abortRequest().describe();
    run.enter(ROLLING_BACK);
    launch.cancel("replacement of " + command.nodeClaim() + " aborted: " + why);
    boolean wasCordoned = run.state().cordoned();
    Workflow.newDetachedCancellationScope(this::undoNodeChanges).run();
    if (command.nodeName() != null && !run.abortedByOwner()) {
      run.nodes().markAborted(run.nodeRef());
    }
    ReplacementState state = run.state();
    String kept = state.replacement() == null
        ? (state.replacementName() == null ? "no replacement was launched" : "unused replacement " + state.replacementName() + " removed")
        : "initialized replacement " + state.replacementName() + " kept as capacity";
    String message = "replacement aborted: " + why + "; node untainted" + (wasCordoned ? " and uncordoned" : "") + ", " + kept;
    run.recordOnNodeAndClaim(EventReasons.WARNING, EventReasons.REPLACEMENT_ABORTED, message);
    run.enter(ABORTED);
    StructuredLog.info(LOG, "disruption aborted", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
        "reason", why, "replacement", state.replacementName(), "replacementKept", state.replacement() != null);
    ReplacementResult result = run.result(OUTCOME_ABORTED);
    return state.replacement() == null
        ? new ReplacementResult(result.nodeClaim(), result.outcome(), null, null, result.evictedPods())
        : result;
  }

  /** A clear failure; before the point of no return the node is given back to the scheduler first. */
  RuntimeException afterFailure(TemporalFailure failure) {
    ReplacementPhase failedIn = run.state().phase();
    boolean canceled = CancellationScope.current().isCancelRequested();
    String undone;
    if (!run.state().pastPointOfNoReturn()) {
      run.enter(ROLLING_BACK);
      boolean wasCordoned = run.state().cordoned();
      try {
        Workflow.newDetachedCancellationScope(this::undoNodeChanges).run();
        undone = "; node untainted" + (wasCordoned ? " and uncordoned" : "") + ", left in service";
      } catch (TemporalFailure rollbackFailure) {
        undone = "; ROLLBACK FAILED (" + Failures.reason(rollbackFailure) + "), node may still be tainted";
      }
    } else {
      undone = "; the instance is past the point of no return: Retry runs its termination again";
    }
    if (canceled) {
      run.enter(FAILED);
    }
    boolean ownFailure = failure instanceof ApplicationFailure app && OWN_FAILURES.contains(app.getType());
    String message = ownFailure
        ? ((ApplicationFailure) failure).getOriginalMessage() + undone
        : "replacement of nodeclaim " + run.command().nodeClaim() + " failed while " + failedIn + ": "
            + Failures.reason(failure) + undone;
    if (canceled) {
      return new CanceledFailure(message);
    }
    String type = ownFailure ? ((ApplicationFailure) failure).getType() : FailureTypes.REPLACEMENT_FAILED;
    return ApplicationFailure.newNonRetryableFailureWithCause(message, type, failure);
  }

  /**
   * After a failed step (already rolled back by {@link #afterFailure}), waits for an operator's Retry. Returns whether
   * to run the steps again; false when this run cannot hold (cancellation) or nobody retried in time. An abort while
   * waiting throws {@link AbortRequested}: the workflow rolls back and ends.
   */
  boolean awaitRetry(RuntimeException failed) {
    if (failed instanceof CanceledFailure) {
      return false;
    }
    ReplacementInput input = run.input();
    if (input.owner() != null && !run.state().pastPointOfNoReturn()) {
      // A rollout's replacement: the node was given back; the rollout decides what happens next.
      run.recordOnNodeAndClaim(EventReasons.WARNING, EventReasons.DISRUPTION_FAILED, failed.getMessage() + "; reported to " + input.owner());
      run.enter(FAILED);
      return false;
    }
    run.enter(AWAITING_RETRY);
    run.setBlocker(new Blocker(Blocker.Kind.STEP_FAILED, DrainPolicy.truncate("step failed: " + failed.getMessage()
        + "; Retry or Abort"), List.of(), List.of(), Workflow.currentTimeMillis()));
    run.recordOnNodeAndClaim(EventReasons.WARNING, EventReasons.DISRUPTION_FAILED, failed.getMessage() + "; waiting for Retry");
    Duration window = run.state().pastPointOfNoReturn() ? RETRY_WINDOW_PAST_NO_RETURN : RETRY_WINDOW;
    boolean acted = Waits.awaitOrTimeout(window,
        () -> run.retryRequested() || run.urgent() || (run.abortRequested() && !run.state().pastPointOfNoReturn()));
    run.setBlocker(null);
    if (!acted) {
      run.enter(FAILED);
      return false;
    }
    if (run.abortRequested() && !run.retryRequested()) {
      throw new AbortRequested();
    }
    if (!run.retryRequested()) {
      // Interrupted while waiting: the node goes away whatever happens, so its drain cannot wait for a person.
      StructuredLog.info(LOG, "interrupted while waiting for a retry, retrying now", "nodeclaim", run.command().nodeClaim(),
          "reason", run.reasonOfInterruption());
    }
    run.requestRetry(false);
    StructuredLog.info(LOG, "retrying replacement", "nodeclaim", run.command().nodeClaim(), "node", run.command().nodeName(),
        "pastPointOfNoReturn", run.state().pastPointOfNoReturn());
    return true;
  }

  /** Removes the taint and this workflow's cordon; what was undone is no longer this workflow's to undo. */
  private void undoNodeChanges() {
    if (run.state().tainted()) {
      run.nodes().untaintDisrupted(run.nodeRef());
    }
    if (run.state().cordoned()) {
      run.nodes().uncordon(run.nodeRef());
    }
    run.update(run.state().withNodeChanges(false, false));
  }
}
