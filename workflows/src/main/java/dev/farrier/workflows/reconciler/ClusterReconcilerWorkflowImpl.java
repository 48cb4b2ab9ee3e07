package dev.farrier.workflows.reconciler;

import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.workflows.Waits;
import dev.farrier.workflows.provisioning.LaunchesClosed;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/**
 * The cluster's entity workflow, one loop ({@link #run}): each turn starts the provisioning batch that is due
 * ({@link ProvisioningBatch}), runs the disruption round when its time has come ({@link DisruptionRound}), continues as
 * new when it is time ({@link CarryOver}), then sleeps until something wakes it: new pods, a replacement closing (the
 * next round is brought forward to {@link #REFILL_DELAY} after it, so its budget slot is refilled at once) or the next
 * deadline (a batch falling due, the next round). Everything it knows is one {@link ReconcilerRun}. Signals
 * ({@link Signals}) and the operator's Updates ({@link OperatorActions}) only change that; all work happens in the loop.
 *
 * <p>History stays bounded: the loop continues as new when the server suggests it or after {@link #MAX_TURNS} turns.
 */
public class ClusterReconcilerWorkflowImpl implements ClusterReconcilerWorkflow {
  /** Roughly 5 events a turn: a few thousand events per run, far below the history limits. */
  static final int MAX_TURNS = 500;
  /**
   * How long after a replacement closes its slot is planned again: enough for the worker's informers to see the deleted
   * NodeClaim (milliseconds on a healthy API server), and one round for replacements that close together. Without it a
   * fleet drift under a budget of 50 ran at 75% of it, each freed slot idle for half an interval on average.
   */
  static final Duration REFILL_DELAY = Duration.ofSeconds(1);

  private final ReconcilerRun reconciler = new ReconcilerRun();
  private final Signals signals = new Signals(reconciler);
  private final OperatorActions operator = new OperatorActions(reconciler);
  private final ProvisioningBatch batch = new ProvisioningBatch(reconciler);
  private final DisruptionRound round = new DisruptionRound(reconciler);
  private final CarryOver carryOver = new CarryOver(reconciler);

  @Override
  public void run(ReconcilerInput input) {
    reconciler.begin(input);
    signals.applyHeld();
    long nextRoundAt = Workflow.currentTimeMillis() + reconciler.settings.disruptionIntervalMillis();
    int closedSeen = 0;
    for (int turn = 1; ; turn++) {
      if (reconciler.replacementsClosed != closedSeen) {
        closedSeen = reconciler.replacementsClosed;
        nextRoundAt = Math.min(nextRoundAt, Workflow.currentTimeMillis() + REFILL_DELAY.toMillis());
      }
      if (reconciler.batchDue()) {
        batch.start();
      }
      if (Workflow.currentTimeMillis() >= nextRoundAt) {
        round.run();
        nextRoundAt = Workflow.currentTimeMillis() + reconciler.settings.disruptionIntervalMillis();
      }
      if (turn >= MAX_TURNS || Workflow.getInfo().isContinueAsNewSuggested()) {
        carryOver.continueAsNew();
        return;
      }
      awaitNextTurn(nextRoundAt, closedSeen);
    }
  }

  /**
   * Until the next deadline (the open batch falling due, the next round), new pods or a replacement closing; the timer
   * is cancelled when a signal wins, so a busy cluster does not collect stale timers.
   */
  private void awaitNextTurn(long nextRoundAt, int closedSeen) {
    long now = Workflow.currentTimeMillis();
    long wakeAt = Math.min(nextRoundAt, reconciler.batchDueAt());
    long arrivalsSeen = reconciler.batcher.arrivals();
    Waits.awaitOrTimeout(Duration.ofMillis(Math.max(1, wakeAt - now)),
        () -> reconciler.batcher.arrivals() != arrivalsSeen || reconciler.replacementsClosed != closedSeen);
  }

  // Signals, handled by Signals.

  @Override
  public void podsPending(PendingPods pods) {
    signals.podsPending(pods);
  }

  @Override
  public void batchClosed(String batchId) {
    signals.batchClosed(batchId);
  }

  @Override
  public void launchesClosed(LaunchesClosed closed) {
    signals.launchesClosed(closed);
  }

  @Override
  public void replacementClosed(String nodeClaim) {
    signals.replacementClosed(nodeClaim);
  }

  @Override
  public void updateSettings(ReconcilerSettings settings) {
    signals.updateSettings(settings);
  }

  // Operator actions, handled by OperatorActions.

  @Override
  public void validateFreeze(FreezeRequest request) {
    operator.validateFreeze(request);
  }

  @Override
  public String freeze(FreezeRequest request) {
    return operator.freeze(request);
  }

  @Override
  public void validateUnfreeze(FreezeRequest request) {
    operator.validateUnfreeze(request);
  }

  @Override
  public String unfreeze(FreezeRequest request) {
    return operator.unfreeze(request);
  }

  @Override
  public void validatePreviewPlan() {
    operator.validatePreviewPlan();
  }

  @Override
  public DisruptionPlan previewPlan() {
    return operator.previewPlan();
  }

  @Override
  public ReconcilerStatus status() {
    return operator.status();
  }
}
