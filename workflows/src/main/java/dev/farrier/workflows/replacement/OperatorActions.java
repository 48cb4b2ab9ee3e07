package dev.farrier.workflows.replacement;

import static dev.farrier.workflows.Refusals.refuseIf;
import static dev.farrier.workflows.replacement.ReplacementPhase.AWAITING_APPROVAL;
import static dev.farrier.workflows.replacement.ReplacementPhase.AWAITING_RETRY;
import static dev.farrier.workflows.replacement.ReplacementPhase.CORDONING;
import static dev.farrier.workflows.replacement.ReplacementPhase.DRAINING;
import static dev.farrier.workflows.replacement.ReplacementPhase.LAUNCHING;
import static dev.farrier.workflows.replacement.ReplacementPhase.TAINTING;
import static dev.farrier.workflows.replacement.ReplacementRun.LOG;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.StructuredLog;

/**
 * The replacement's Updates, signals and query (see {@link NodeReplacementWorkflow}). Each validator refuses, with a
 * message, what makes no sense in the current state; each handler only records the request in the
 * {@link ReplacementRun}, and the steps act on it at their next checkpoint. A signal or query may come before the
 * workflow method has run: then there is no command yet.
 */
final class OperatorActions {
  private final ReplacementRun run;

  OperatorActions(ReplacementRun run) {
    this.run = run;
  }

  void validatePause() {
    ReplacementState state = run.state();
    refuseWhenFinishedOrGone("pause");
    refuseIf(state.paused(), "already paused; resume it with Resume");
    refuseIf(run.urgent(), "the node is being interrupted (" + run.reasonOfInterruption() + "): its drain cannot wait");
    refuseIf(state.phase() == AWAITING_RETRY || state.phase() == AWAITING_APPROVAL,
        "it is " + state.phase() + " already: nothing runs until an operator acts");
  }

  String pause(OperatorRequest request) {
    run.update(run.state().withPaused(true));
    return said("paused before its next step", request);
  }

  void validateResume() {
    ReplacementState state = run.state();
    refuseIf(state.phase().finished(), "it has ended (" + state.phase() + ")");
    refuseIf(!state.paused(), "it is not paused (phase " + state.phase() + ")");
  }

  String resume(OperatorRequest request) {
    run.update(run.state().withPaused(false));
    return said("resumed", request);
  }

  void validateAbort(OperatorRequest request) {
    refuseWhenFinishedOrGone("abort");
    refuseIf(run.abortRequested(), "an abort is already rolling it back (" + (run.abortRequested() ? run.abortDescription() : "") + ")");
    refuseIf(request == null || !request.hasReason(), "an abort needs a reason (it is recorded on the node)");
  }

  String abort(OperatorRequest request) {
    run.requestAbort(request, false);
    return said("abort accepted in phase " + run.state().phase() + ": rolling back", request);
  }

  void validateRetry() {
    refuseIf(run.state().phase() != AWAITING_RETRY, "nothing to retry: no step has failed (phase " + run.state().phase() + ")");
    refuseIf(run.retryRequested(), "a retry is already starting");
  }

  String retry(OperatorRequest request) {
    run.requestRetry(true);
    return said(run.state().pastPointOfNoReturn() ? "retrying termination" : "retrying the replacement from the start", request);
  }

  void validateForceDrain(OperatorRequest request) {
    ReplacementState state = run.state();
    refuseIf(request == null || !request.hasReason(), "a force-drain needs a reason (it is recorded as an Event)");
    refuseIf(state.phase() != DRAINING, "force-drain applies while the node drains; this replacement is " + state.phase()
        + (state.phase() == LAUNCHING || state.phase() == TAINTING || state.phase() == CORDONING ? " (not draining yet)" : ""));
    refuseIf(state.forceDrain() != null, "already forced (" + (state.forceDrain() == null ? "" : state.forceDrain().describe()) + ")");
    refuseIf(run.abortRequested(), "an abort is rolling it back");
  }

  String forceDrain(OperatorRequest request) {
    DisruptionCommand command = run.command();
    int left = run.state().podsLeft().size();
    run.update(run.state().withForceDrain(request));
    StructuredLog.warn(LOG, "drain forced by operator", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
        "reason", request.describe(), "podsLeft", left);
    run.recordOnNodeAndClaim(EventReasons.WARNING, EventReasons.FORCE_DRAIN, "drain forced past PodDisruptionBudgets and "
        + "do-not-disrupt: " + request.describe() + "; " + left + " pod(s) left to delete");
    return said("forcing the drain: the " + left + " pod(s) left are deleted past their PDBs", request);
  }

  void validateApprove() {
    refuseIf(run.state().phase() != AWAITING_APPROVAL, "it is not waiting for approval (phase " + run.state().phase() + ")");
  }

  String approve(OperatorRequest request) {
    run.update(run.state().withApproved(true));
    return said("approved: cordoning and draining " + run.nodeNameOrClaim(), request);
  }

  /** May run before the workflow method (a signal in the first workflow task): whose abort it is, is decided later. */
  void rolloutAborted(String reason) {
    if (run.state().pastPointOfNoReturn() || run.abortRequested()) {
      StructuredLog.info(LOG, "rollout's abort ignored", "nodeclaim", nodeClaimOrNull(), "phase", run.state().phase(),
          "reason", reason);
      return;
    }
    run.requestAbort(OperatorRequest.of(reason), true);
  }

  void interrupted(Interruption notice) {
    ReplacementState state = run.state();
    if (state.pastPointOfNoReturn() || state.interruption() != null || notice == null) {
      StructuredLog.info(LOG, "interruption signal ignored", "nodeclaim", nodeClaimOrNull(), "phase", state.phase(),
          "reason", notice == null ? null : notice.reason());
      return;
    }
    run.update(state.withInterruption(notice));
  }

  ReplacementProgress progress() {
    ReplacementState state = run.state();
    DisruptionCommand command = run.command();
    Blocker blocker = state.blocker();
    return new ReplacementProgress(
        command == null ? null : command.nodeClaim(),
        command == null ? null : command.nodeName(),
        state.phase().label(), state.replacementName(), state.podsLeft(), state.evicted(),
        blocker == null ? null : blocker.summary(), state.paused(),
        command == null ? null : run.urgent() ? state.interruption().reason() : command.reason(),
        command == null ? null : command.nodePool(),
        blocker, state.forceDrain() == null ? null : state.forceDrain().describe(), state.pastPointOfNoReturn());
  }

  private String nodeClaimOrNull() {
    return run.command() == null ? null : run.command().nodeClaim();
  }

  private void refuseWhenFinishedOrGone(String action) {
    ReplacementState state = run.state();
    refuseIf(state.phase().finished(), "it has ended (" + state.phase() + "): nothing to " + action);
    refuseIf(state.pastPointOfNoReturn(), "the node is past the point of no return (" + state.phase()
        + "): its instance is being terminated");
  }

  private String said(String what, OperatorRequest request) {
    String text = "disrupt/" + run.command().nodeClaim() + ": " + what;
    return request != null && request.hasReason() ? text + " (" + request.describe() + ")" : text;
  }
}
