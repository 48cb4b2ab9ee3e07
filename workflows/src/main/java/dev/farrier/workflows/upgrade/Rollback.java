package dev.farrier.workflows.upgrade;

import static dev.farrier.workflows.upgrade.UpgradePhase.ABORTED;
import static dev.farrier.workflows.upgrade.UpgradePhase.FAILED;
import static dev.farrier.workflows.upgrade.UpgradePhase.ROLLING_BACK;

import dev.farrier.model.RolloutBatch;
import dev.farrier.model.RolloutScope;
import dev.farrier.model.WellKnown;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.workflows.activities.RolloutClaim;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Workflow;

/**
 * A stopped rollout's end: the class gets its previous images back, the nodes the rollout launched are replaced by
 * nodes on them, batch by batch (budgets and PDBs still hold; no gate: the previous images are the known good ones),
 * and the NodePools are released, also when the rollback failed (a NodePool left owned by an ended rollout would hold
 * its drift for ever).
 */
final class Rollback {
  /** Rollback replacements that may fail before the rollback gives up (and says so) rather than retrying forever. */
  static final int ROLLBACK_ATTEMPTS = 3;

  private final Rollout rollout;
  private final Replacements replacements;

  Rollback(Rollout rollout, Replacements replacements) {
    this.rollout = rollout;
    this.replacements = replacements;
  }

  /** Rolls back, releases, and answers the rollout's result: Aborted or Failed, with {@code cause}. */
  UpgradeResult stopped(String cause, boolean aborted) {
    rollout.state = rollout.state.withCause(cause);
    StructuredLog.warn(Rollout.log, "rollout stopped, rolling back", "rollout", rollout.workflowId, "cause", cause);
    int rolledBack = 0;
    boolean classRestored = true;
    try {
      rolledBack = rollBack();
    } catch (ActivityFailure failure) {
      classRestored = false;
      rollout.state = rollout.state.withCause(rollout.state.cause() + "; the rollback failed (" + Failures.reason(failure)
          + "): check EC2NodeClass " + rollout.claim().nodeClass() + " (its previous terms are in "
          + WellKnown.PREVIOUS_AMI_TERMS_ANNOTATION + ")");
      StructuredLog.warn(Rollout.log, "rollout rollback failed", "rollout", rollout.workflowId, "error", Failures.reason(failure));
    }
    rollout.enter(aborted ? ABORTED : FAILED);
    rollout.release(classRestored);
    return rollout.result(aborted ? UpgradeResult.ABORTED : UpgradeResult.FAILED, rollout.state.cause(), rolledBack);
  }

  /** Puts the previous images back and replaces the nodes this rollout launched; returns how many were replaced back. */
  private int rollBack() {
    RolloutClaim claim = rollout.claim();
    rollout.enter(ROLLING_BACK);
    rollout.setBlocker(null);
    if (!claim.alreadyOnTarget()) {
      rollout.switchImages(claim.previousTerms(), claim.previousAmiFamily(), false, claim.previousImages());
    }
    if (rollout.state.launched().isEmpty()) {
      return 0;
    }
    int back = 0;
    int failed = 0;
    int size = BatchSize.parse(rollout.input.batchSize()).of(Math.max(rollout.state.total(), 1));
    while (failed < ROLLBACK_ATTEMPTS) {
      RolloutBatch batch = rollout.planning.planRollout(new PlanDisruptionRequest(rollout.input.cluster(),
          new RolloutScope(rollout.workflowId, claim.nodePools(), size, rollout.state.launched())));
      if (batch.commands().isEmpty()) {
        if (batch.remaining() == 0) {
          return back;
        }
        rollout.setBlocker("rollback: " + Rollout.heldBy(batch));
        Workflow.sleep(Rollout.REPLAN_INTERVAL);
        continue;
      }
      Replacements.Outcomes outcomes = replacements.replaceAll(batch.commands(), false);
      back += outcomes.replaced().size();
      failed += outcomes.failed().size();
    }
    rollout.state = rollout.state.withCause(rollout.state.cause() + "; the rollback could not replace every new node ("
        + failed + " failures): see the disrupt/ workflows of " + rollout.state.launched());
    return back;
  }
}
