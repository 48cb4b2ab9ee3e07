package dev.farrier.workflows.upgrade;

import static dev.farrier.workflows.upgrade.UpgradePhase.BATCH;
import static dev.farrier.workflows.upgrade.UpgradePhase.CANARY;
import static dev.farrier.workflows.upgrade.UpgradePhase.WAITING;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.RolloutBatch;
import dev.farrier.model.WorkloadRef;
import dev.farrier.workflows.activities.HealthRequest;
import io.temporal.workflow.Workflow;
import java.util.List;

/**
 * One batch at a time, the canary first: plan it, replace it, stop on too many failures, gate it (and after the canary,
 * wait for an approval when asked), and continue as new between batches when Temporal suggests it. A change freeze,
 * the budgets or do-not-disrupt hold the next batch until they let go.
 */
final class BatchMode {
  private final Rollout rollout;
  private final Replacements replacements;
  private final GateWatch gate;
  private final OperatorActions operator;

  BatchMode(Rollout rollout, Replacements replacements, GateWatch gate, OperatorActions operator) {
    this.rollout = rollout;
    this.replacements = replacements;
    this.gate = gate;
    this.operator = operator;
  }

  /**
   * Plans and runs the next batch (the canary's size first, then {@code size}), or waits {@link Rollout#REPLAN_INTERVAL}
   * when the plan is held. Returns false once no drifted node of the NodePools remains.
   */
  boolean next(BatchSize size) {
    UpgradeInput input = rollout.input;
    rollout.checkAbort();
    boolean canary = rollout.state.batch() == 0;
    int max = canary ? input.canary() : size.of(Math.max(rollout.state.total(), 1));
    RolloutBatch batch = rollout.planNext(max, List.of());
    if (batch.frozen() != null) {
      // A change freeze holds the rollout where it is: no batch starts until it is lifted (or the rollout aborted).
      rollout.enter(WAITING);
      rollout.setBlocker(batch.frozen());
      rollout.awaitNextPlan();
      return true;
    }
    rollout.updateThisRun(run -> run.withRemaining(batch.remaining()));
    if (canary && rollout.state.total() == 0) {
      rollout.state = rollout.state.withTotal(batch.remaining());
    }
    if (batch.commands().isEmpty()) {
      if (batch.remaining() == 0) {
        rollout.setBlocker(null);
        return false;
      }
      rollout.enter(WAITING);
      rollout.setBlocker(Rollout.heldBy(batch));
      rollout.awaitNextPlan();
      return true;
    }
    rollout.setBlocker(null);
    List<String> claims = batch.commands().stream().map(DisruptionCommand::nodeClaim).toList();
    rollout.state = rollout.state.withBatch(rollout.state.batch() + 1, claims);
    rollout.enter(canary ? CANARY : BATCH);
    List<WorkloadRef> moved = batch.workloadsOf(claims);
    Replacements.Outcomes outcomes = replacements.replaceAll(batch.commands(), true);
    rollout.state = rollout.state.withOutcomes(outcomes.replaced().size(), outcomes.failed().size(), outcomes.launchedClaims());
    rollout.checkAbort();
    if (rollout.state.failures() > input.maxFailures()) {
      throw rollout.tooManyFailures(outcomes.failed());
    }
    String gateFailed = gate.gate(new HealthRequest(input.cluster(), outcomes.newNodes(), moved),
        "gate of batch " + rollout.state.batch(), true);
    if (gateFailed != null) {
      throw new RolloutStopped(gateFailed, false);
    }
    if (canary && input.approvalRequired()) {
      operator.awaitApproval();
    }
    if (Workflow.getInfo().isContinueAsNewSuggested()) {
      rollout.checkAbort(); // an Abort accepted in this workflow task stops this run; the next would start without it
      Workflow.continueAsNew(input.continuedWith(rollout.state));
    }
    return true;
  }
}
