package dev.farrier.workflows.upgrade;

import static dev.farrier.workflows.Refusals.refuseIf;
import static dev.farrier.workflows.upgrade.UpgradePhase.AWAITING_APPROVAL;

import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.activities.PreviewRolloutRequest;
import dev.farrier.workflows.activities.RolloutClaim;
import dev.farrier.workflows.replacement.OperatorRequest;
import io.temporal.workflow.Workflow;
import java.util.List;

/**
 * What an operator does to a rollout ({@code farrier upgrade approve|abort|status}): each Update's validator refuses,
 * with a message, an action that makes no sense now (a refused Update leaves no trace in the history); the handlers
 * only record the request in {@link UpgradeState.ThisRun} (they never wait), and the script acts on it at its next
 * checkpoint. The queries ({@code status}, and what is left for {@code farrier upgrade preview}) only read the state.
 */
final class OperatorActions {
  private final Rollout rollout;

  OperatorActions(Rollout rollout) {
    this.rollout = rollout;
  }

  void validateApprove(OperatorRequest request) {
    UpgradePhase phase = rollout.state.phase();
    refuseIf(phase != AWAITING_APPROVAL, "it is not waiting for approval (phase " + phase.label() + ")");
  }

  String approve(OperatorRequest request) {
    OperatorRequest approval = request == null ? new OperatorRequest(null, null) : request;
    rollout.updateThisRun(run -> run.withApproval(approval));
    return rollout.workflowId + ": approved, rolling on after the canary"
        + (request != null && request.hasReason() ? " (" + request.describe() + ")" : "");
  }

  void validateAbort(OperatorRequest request) {
    UpgradePhase phase = rollout.state.phase();
    OperatorRequest abort = rollout.thisRun().abort();
    refuseIf(phase.stopping(), "it is " + phase.label() + " already: nothing to abort");
    refuseIf(abort != null, "an abort is already stopping it (" + (abort == null ? "" : abort.describe()) + ")");
    refuseIf(request == null || !request.hasReason(), "an abort needs a reason (it is the rollout's result)");
  }

  String abort(OperatorRequest request) {
    rollout.updateThisRun(run -> run.withAbort(request));
    return rollout.workflowId + ": abort accepted in phase " + rollout.state.phase().label()
        + ": stopping and rolling back (" + request.describe() + ")";
  }

  /**
   * What is left, for the preview workflow: read from the state alone (no activity, so a handler never waits and an
   * Abort is never held up behind it), or why nothing is left to preview.
   */
  RolloutRemaining remaining() {
    UpgradePhase phase = rollout.state.phase();
    RolloutClaim c = rollout.claim();
    String refused = phase.stopping() ? "it is " + phase.label() + ": nothing left to preview"
        : c == null ? "it has not taken its NodePools yet (phase " + phase.label() + "): preview with farrier upgrade --dry-run instead"
        : rollout.abortRequested() ? "an abort is stopping it: nothing left to preview"
        : null;
    if (refused != null) {
      return new RolloutRemaining(null, refused);
    }
    UpgradeState state = rollout.state;
    return new RolloutRemaining(rollout.input.previewRequest(rollout.workflowId, c.nodePools(), c.targetTerms(),
        new PreviewRolloutRequest.RunningRollout(state.batch(), state.total(), state.current(), phase.label())), null);
  }

  UpgradeProgress progress() {
    UpgradeState state = rollout.state;
    UpgradeInput input = rollout.input;
    RolloutClaim c = state.claim();
    return new UpgradeProgress(state.phase().label(), input == null ? null : input.targetText(),
        c == null ? input == null ? List.of() : input.nodePools() : c.nodePools(), c == null ? null : c.nodeClass(),
        state.batch(), state.total(), state.replaced(), state.thisRun().remaining(), state.failures(), state.current(),
        state.blocker(), state.blockedSinceMillis(), state.cause(), input == null ? null : input.requestedBy());
  }

  /** After the canary passed its gate, when the input asks for it: waits for {@code Approve} (or an abort). */
  void awaitApproval() {
    rollout.enter(AWAITING_APPROVAL);
    rollout.setBlocker("waiting for Approve after the canary (farrier upgrade approve)");
    Workflow.await(() -> rollout.thisRun().approval() != null || rollout.abortRequested());
    rollout.setBlocker(null);
    rollout.checkAbort();
    StructuredLog.info(Rollout.log, "rollout approved after the canary", "rollout", rollout.workflowId,
        "by", rollout.thisRun().approval().describe());
  }
}
