package dev.farrier.workflows.upgrade;

import dev.farrier.model.ReplacementResult;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.activities.ClosedReplacement;
import dev.farrier.workflows.activities.FollowRequest;
import dev.farrier.workflows.activities.RolloutActivities;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.CompletablePromise;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rolling rollout's hand-over across continue-as-new, both sides: a run continues as new with its slots in flight
 * ({@link UpgradeState#carried}), and the next run gates every carried slot again from the start and follows the
 * replacements still running ({@link RolloutActivities#awaitClosed}): they were the run before's children, so their
 * results do not come to this one.
 */
final class SlotHandOver {
  /** How long one {@link RolloutActivities#awaitClosed} waits for a carried replacement to close. */
  static final Duration FOLLOW_WAIT = Duration.ofSeconds(30);

  private final Rollout rollout;

  SlotHandOver(Rollout rollout) {
    this.rollout = rollout;
  }

  /** Continues as new with the slots in flight, each with what its gate watches and its replacement's end, if known. */
  void continueAsNew(Slots slots) {
    Workflow.continueAsNew(rollout.input.continuedWith(rollout.state.withCarried(slots.carry())));
  }

  /**
   * Takes over the slots the run before carried: each is gated again from the start (a soak begun before is begun
   * again), and the replacements still running are followed until they close ({@link #follow}).
   */
  void takeOver(Slots slots) {
    List<CarriedSlot> carried = rollout.state.carried();
    if (carried.isEmpty()) {
      return;
    }
    rollout.state = rollout.state.withCarried(List.of());
    Map<String, CompletablePromise<ReplacementResult>> running = new LinkedHashMap<>();
    for (CarriedSlot slot : carried) {
      Promise<ReplacementResult> replacement;
      if (slot.running()) {
        CompletablePromise<ReplacementResult> closes = Workflow.newPromise();
        running.put(slot.nodeClaim(), closes);
        replacement = closes;
      } else {
        replacement = slot.failure() != null ? Workflow.newFailedPromise(Replacements.carriedFailure(slot.failure()))
            : Workflow.newPromise(slot.result());
      }
      slots.open(slot.nodeClaim(), replacement, slot.moved());
    }
    if (!running.isEmpty()) {
      Async.procedure(() -> follow(running));
    }
    StructuredLog.info(Rollout.log, "rollout took over its slots in flight", "rollout", rollout.workflowId,
        "slots", carried.size(), "running", running.size());
  }

  /**
   * Waits for the carried replacements still running to close, and completes each one's promise with its result or
   * failure. A follow that fails past its retries (Temporal not answering) is tried again after
   * {@link Rollout#REPLAN_INTERVAL}: the slots wait, which is the safe side.
   */
  private void follow(Map<String, CompletablePromise<ReplacementResult>> running) {
    while (running.values().stream().anyMatch(p -> !p.isCompleted())) {
      List<String> open = running.entrySet().stream().filter(e -> !e.getValue().isCompleted()).map(Map.Entry::getKey).toList();
      List<ClosedReplacement> closed;
      try {
        closed = rollout.activities.awaitClosed(new FollowRequest(rollout.input.cluster(), open, FOLLOW_WAIT.toSeconds()));
      } catch (ActivityFailure failure) {
        StructuredLog.warn(Rollout.log, "rollout cannot follow its carried replacements, trying again",
            "rollout", rollout.workflowId, "error", Failures.reason(failure));
        Workflow.sleep(Rollout.REPLAN_INTERVAL);
        continue;
      }
      for (ClosedReplacement done : closed) {
        CompletablePromise<ReplacementResult> closes = running.get(done.nodeClaim());
        if (closes == null || closes.isCompleted()) {
          continue;
        }
        if (done.result() != null) {
          closes.complete(done.result());
        } else {
          closes.completeExceptionally(Replacements.carriedFailure(done.failure()));
        }
      }
    }
  }
}
