package dev.farrier.workflows.upgrade;

import static dev.farrier.workflows.upgrade.UpgradePhase.ROLLING;
import static dev.farrier.workflows.upgrade.UpgradePhase.WAITING;

import dev.farrier.model.ReplacementResult;
import dev.farrier.model.RolloutBatch;
import dev.farrier.model.WorkloadRef;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.Waits;
import dev.farrier.workflows.activities.HealthRequest;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * After the canary with {@code --rolling}: up to a batch of replacements in flight ({@link Slots}), each gated on its
 * own (its new node and the moved workloads' pods on it, through the soak: {@link HealthGate#check}), and the next
 * planned as soon as one has passed its gate. At most a batch of nodes is unproven at any time, as with batches, but a
 * slow replacement holds only its own slot, not the whole batch. A failed gate, too many failures, a step failing past
 * its retries or an abort stop new starts; the replacements in flight finish (an abort is passed on to them) before the
 * rollback, so every node they launched is known to it. A change freeze or the budgets hold new starts only.
 *
 * <p>It continues as new when Temporal suggests it or after {@link NodePoolUpgradeWorkflowImpl#MAX_STARTS_PER_RUN}
 * starts, with its slots in flight ({@link SlotHandOver}) rather than after waiting for its window to drain (in a
 * 500-node roll each drain left slots idle for about one replacement's time, twice a roll).
 */
final class RollingMode {
  private final Rollout rollout;
  private final Replacements replacements;
  private final GateWatch gate;
  private final SlotHandOver handOver;

  RollingMode(Rollout rollout, Replacements replacements, GateWatch gate) {
    this.rollout = rollout;
    this.replacements = replacements;
    this.gate = gate;
    this.handOver = new SlotHandOver(rollout);
  }

  /** Rolls until no drifted node remains; throws {@link RolloutStopped} once stopped and the slots have closed. */
  void run(BatchSize size) {
    int max = size.of(Math.max(rollout.state.total(), 1));
    Slots slots = new Slots(this::gateOf);
    handOver.takeOver(slots);
    long planAt = 0;
    rollout.enter(ROLLING);
    while (true) {
      if (slots.closeDone(this::closeSlot)) {
        planAt = 0;
        rollout.state = rollout.state.withBatch(rollout.state.batch(), slots.claims());
      }
      if (stopping()) {
        windDown(slots);
        continue;
      }
      if (Workflow.getInfo().isContinueAsNewSuggested()
          || rollout.thisRun().started() >= NodePoolUpgradeWorkflowImpl.MAX_STARTS_PER_RUN) {
        handOver.continueAsNew(slots);
      }
      if (slots.size() < max && Workflow.currentTimeMillis() >= planAt) {
        try {
          planAt = refill(max, slots);
        } catch (ActivityFailure failure) {
          stop(new RolloutStopped("a step failed: " + Failures.reason(failure), false));
        }
        if (rollout.thisRun().stopping() != null || rollout.abortRequested()) {
          continue;
        }
        if (planAt < 0) {
          return;
        }
      }
      long wait = Math.max(planAt - Workflow.currentTimeMillis(), 1);
      if (slots.size() >= max) {
        Workflow.await(() -> slots.anyDone() || rollout.abortRequested());
      } else {
        Waits.awaitOrTimeout(Duration.ofMillis(wait), () -> slots.anyDone() || rollout.abortRequested());
      }
    }
  }

  /** Whether the rollout is stopping; an abort makes it so. */
  private boolean stopping() {
    if (rollout.thisRun().stopping() == null && rollout.abortRequested()) {
      stop(rollout.aborted());
    }
    return rollout.thisRun().stopping() != null;
  }

  private void stop(RolloutStopped why) {
    rollout.updateThisRun(run -> run.withStopping(why.why()));
  }

  /**
   * While stopping: waits for a slot to close (or an abort to pass on), and once none is left throws why it stopped.
   * An operator's abort hurries the slots along, also when the rollout was stopping already (a failed gate).
   */
  private void windDown(Slots slots) {
    if (rollout.abortRequested() && !rollout.thisRun().abortPassedOn()) {
      rollout.updateThisRun(UpgradeState.ThisRun::withAbortPassedOn);
      replacements.passAbortOn(slots.replacements());
    }
    RolloutStopped.Why why = rollout.thisRun().stopping();
    if (slots.isEmpty()) {
      throw why.thrown();
    }
    rollout.setBlocker("stopping (" + why.cause() + "): waiting for " + slots.size() + " replacement(s) in flight");
    Workflow.await(() -> slots.anyDone() || (rollout.abortRequested() && !rollout.thisRun().abortPassedOn()));
  }

  /**
   * Plans up to the free slots and starts them. Returns when to plan again: now (0) after a full answer, after
   * {@link Rollout#REPLAN_INTERVAL} (or the next slot freed) when the planner held the rest, or -1 when nothing remains.
   */
  private long refill(int max, Slots slots) {
    RolloutBatch next = rollout.planNext(max - slots.size(), slots.claims());
    long later = Workflow.currentTimeMillis() + Rollout.REPLAN_INTERVAL.toMillis();
    if (next.frozen() != null) {
      // A change freeze holds new starts; the replacements in flight finish.
      if (slots.isEmpty()) {
        rollout.enter(WAITING);
      }
      rollout.setBlocker(next.frozen());
      return later;
    }
    rollout.updateThisRun(run -> run.withRemaining(next.remaining()));
    if (next.commands().isEmpty()) {
      if (next.remaining() == 0 && slots.isEmpty()) {
        rollout.setBlocker(null);
        return -1;
      }
      if (slots.isEmpty()) {
        rollout.enter(WAITING);
      }
      rollout.setBlocker(Rollout.heldBy(next, null));
      return later;
    }
    rollout.setBlocker(null);
    rollout.enter(ROLLING);
    if (rollout.abortRequested()) {
      return 0; // aborted while planning: nothing more is started
    }
    List<String> failed = new ArrayList<>();
    rollout.updateThisRun(run -> run.withStarted(next.commands().size()));
    // A replacement's gate watches the pods moved off its own node.
    replacements.start(next.commands(), failed)
        .forEach((claim, result) -> slots.open(claim, result, next.workloadsOf(List.of(claim))));
    rollout.state = rollout.state.withBatch(rollout.state.batch() + 1, slots.claims());
    if (!failed.isEmpty()) {
      rollout.state = rollout.state.withOutcomes(0, failed.size(), List.of()).withBatch(rollout.state.batch(), slots.claims());
      if (rollout.state.failures() > rollout.input.maxFailures()) {
        stop(rollout.tooManyFailures(failed));
      }
    }
    // Slots still free: the planner held the rest, or a replacement someone else started (an expiry) runs for a claim
    // it gave, which Temporal may not list yet. Either way, plan again when a slot frees or after the interval.
    return slots.size() < max ? later : 0;
  }

  /** One replacement's gate, once it is done: null when it passed (or there is nothing to gate), else why not. */
  private String gateOf(String claim, Promise<ReplacementResult> replacement, List<WorkloadRef> moved) {
    ReplacementResult done;
    try {
      done = replacement.get();
    } catch (TemporalFailure failure) {
      return null; // counted as a failed replacement when its slot closes
    }
    if (!"Done".equals(done.outcome()) || done.replacementNode() == null) {
      return null;
    }
    String what = "gate of " + claim + "'s replacement " + done.replacementNode();
    try {
      // Only the troubled pods elsewhere: every pod of a Deployment across 500 nodes made each answer about 110 KB, and
      // the rollout's history reached Temporal's continue-as-new size every 80 or so replacements.
      return gate.gate(new HealthRequest(rollout.input.cluster(), List.of(done.replacementNode()), moved, true), what, false);
    } catch (ActivityFailure failure) {
      return what + ": a step failed: " + Failures.reason(failure);
    }
  }

  /** Counts a closed slot into the state; a failed gate or one failure too many stops the rollout. */
  private void closeSlot(String claim, Promise<ReplacementResult> replacement, String gateFailed) {
    Replacements.Outcome done = Replacements.outcome(claim, replacement);
    rollout.state = rollout.state.withOutcomes(done.replaced() ? 1 : 0, done.failed() == null ? 0 : 1,
        done.launched() == null ? List.of() : List.of(done.launched()));
    if (rollout.thisRun().stopping() == null && done.failed() != null && rollout.state.failures() > rollout.input.maxFailures()) {
      stop(rollout.tooManyFailures(List.of(done.failed())));
    }
    if (rollout.thisRun().stopping() == null && gateFailed != null) {
      stop(new RolloutStopped(gateFailed, false));
    }
  }
}
