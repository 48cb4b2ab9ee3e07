package dev.farrier.workflows.upgrade;

import static dev.farrier.workflows.upgrade.UpgradePhase.CLAIMING;
import static dev.farrier.workflows.upgrade.UpgradePhase.SUCCEEDED;
import static dev.farrier.workflows.upgrade.UpgradePhase.SWITCHING;

import dev.farrier.workflows.Failures;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.activities.ClaimRolloutRequest;
import dev.farrier.workflows.activities.RolloutClaim;
import dev.farrier.workflows.replacement.OperatorRequest;
import io.temporal.failure.ActivityFailure;
import java.util.List;

/**
 * The rollout's script ({@link #upgrade}): claim the NodePools, switch the images, roll forward (the canary and its
 * gate, then batches or rolling slots), check that every node is on a target image, release; on any stop, roll back
 * and release. Each step works on the one {@link Rollout} of this run (its {@link UpgradeState}): {@link BatchMode},
 * {@link RollingMode} with its {@link SlotHandOver}, {@link GateWatch} (deciding with {@link HealthGate}),
 * {@link TargetCheck}, {@link Rollback}; the batches are the disruption planner's ({@code planRollout}), each node an
 * ordinary replacement ({@link Replacements}). The operator's Updates and query are {@link OperatorActions}.
 */
public class NodePoolUpgradeWorkflowImpl implements NodePoolUpgradeWorkflow {
  /** With {@code --rolling}: the replacements one run starts, at most, before it continues as new with its slots. */
  public static final int MAX_STARTS_PER_RUN = 100;

  private final Rollout rollout = new Rollout();
  private final Replacements replacements = new Replacements(rollout);
  private final GateWatch gate = new GateWatch(rollout);
  private final OperatorActions operator = new OperatorActions(rollout);
  private final BatchMode batches = new BatchMode(rollout, replacements, gate, operator);
  private final RollingMode rolling = new RollingMode(rollout, replacements, gate);
  private final TargetCheck targetCheck = new TargetCheck(rollout);
  private final Rollback rollback = new Rollback(rollout, replacements);

  @Override
  public UpgradeResult upgrade(UpgradeInput in) {
    rollout.begin(in);
    boolean firstRun = in.state() == null;
    if (firstRun) {
      claimNodePools();
    }
    try {
      if (firstRun && !claim().alreadyOnTarget()) {
        switchToTarget();
      }
      rollForward();
      targetCheck.untilOnTarget(this::rollForward);
      return succeeded();
    } catch (RolloutStopped stop) {
      return rollback.stopped(stop.getMessage(), stop.aborted);
    } catch (ActivityFailure failure) {
      // A step that failed past its retries (the status loop never resolved the images, the API server is gone).
      return rollback.stopped("a step failed: " + Failures.reason(failure), false);
    }
  }

  /** Takes the NodePools (outside the rollback: a refusal leaves nothing to undo). */
  private void claimNodePools() {
    UpgradeInput in = rollout.input;
    rollout.enter(CLAIMING);
    rollout.state = rollout.state.withClaim(rollout.activities.claim(new ClaimRolloutRequest(in.cluster(), rollout.workflowId,
        in.nodePools(), in.nodeClass(), in.target() == null ? List.of() : in.target().terms(), in.kubernetesVersion())));
    StructuredLog.info(Rollout.log, "rollout started", "rollout", rollout.workflowId, "nodepools", claim().nodePools(),
        "nodeclass", claim().nodeClass(), "from", claim().previousImages(), "to", claim().targetImages());
    rollout.upsertIdentity();
  }

  private void switchToTarget() {
    rollout.enter(SWITCHING);
    rollout.switchImages(claim().targetTerms(), claim().targetAmiFamily(), true, claim().targetImages());
  }

  /** Batches until no drifted node of the NodePools remains: the canary first, then batches or rolling slots. */
  private void rollForward() {
    BatchSize size = BatchSize.parse(rollout.input.batchSize());
    while (!(rollout.input.rolling() && rollout.state.batch() > 0)) {
      if (!batches.next(size)) {
        return;
      }
    }
    rolling.run(size);
  }

  private UpgradeResult succeeded() {
    rollout.enter(SUCCEEDED);
    rollout.release(true);
    StructuredLog.info(Rollout.log, "rollout succeeded", "rollout", rollout.workflowId, "replaced", rollout.state.replaced(),
        "batches", rollout.state.batch());
    return rollout.result(UpgradeResult.SUCCEEDED, null, 0);
  }

  private RolloutClaim claim() {
    return rollout.claim();
  }

  // Operator actions.

  @Override
  public void validateApprove(OperatorRequest request) {
    operator.validateApprove(request);
  }

  @Override
  public String approve(OperatorRequest request) {
    return operator.approve(request);
  }

  @Override
  public void validateAbort(OperatorRequest request) {
    operator.validateAbort(request);
  }

  @Override
  public String abort(OperatorRequest request) {
    return operator.abort(request);
  }

  @Override
  public RolloutRemaining remaining() {
    return operator.remaining();
  }

  @Override
  public UpgradeProgress progress() {
    return operator.progress();
  }
}
