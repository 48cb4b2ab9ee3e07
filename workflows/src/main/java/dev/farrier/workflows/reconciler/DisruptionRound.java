package dev.farrier.workflows.reconciler;

import static dev.farrier.workflows.reconciler.ReconcilerRun.LOG;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.model.ReplacementResult;
import dev.farrier.workflows.ChildWorkflowStarts;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.ReplacementInput;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A turn's disruption round: asks the planner for commands and starts one {@code disrupt/<nodeclaim>} replacement child
 * per command (and the static NodePools' scale-up when one is short of its replicas, {@link StaticScaleUp}), all asked for in one workflow task, then their starts awaited. One start after the other (a workflow
 * task round trip each, about 1 s on a loaded worker) took 26 s for a round of 26 replacements on a 500-node fleet, and
 * its budget's 50 slots were never more than 37 full. Each replacement's close frees its slot; a failed one puts its
 * NodeClaim in a {@link Cooldown}.
 */
final class DisruptionRound {
  private final ReconcilerRun reconciler;
  private final StaticScaleUp scaleUp;

  DisruptionRound(ReconcilerRun reconciler) {
    this.reconciler = reconciler;
    this.scaleUp = new StaticScaleUp(reconciler);
  }

  /** A replacement child asked for, whose start is not confirmed yet. */
  private record ReplacementStart(DisruptionCommand command, String id, NodeReplacementWorkflow child,
      Promise<ReplacementResult> result) {}

  /** The replacements start with the settings the round began with, whatever a signal brings while it plans. */
  void run() {
    ReconcilerSettings settings = reconciler.settings;
    try {
      reconciler.lastPlan = reconciler.planning.planDisruption(reconciler.planRequest(PlanDisruptionRequest.Purpose.ROUND));
    } catch (ActivityFailure failure) {
      // The next round plans again; the entity must outlive a bad round.
      StructuredLog.warn(LOG, "disruption planning failed", "cluster", reconciler.cluster, "error", Failures.reason(failure));
      return;
    }
    List<ReplacementStart> starts = new ArrayList<>();
    for (DisruptionCommand command : reconciler.lastPlan.commands()) {
      ReplacementStart start = begin(settings, command);
      if (start != null) {
        starts.add(start);
      }
    }
    starts.forEach(this::confirmStarted);
    scaleUp.startIfShort(reconciler.lastPlan);
  }

  /** Asks for the command's replacement child, unless its NodeClaim is cooling down after a failure. */
  private ReplacementStart begin(ReconcilerSettings settings, DisruptionCommand command) {
    String id = WorkflowIds.disruption(command.nodeClaim());
    Cooldown cooldown = reconciler.cooldowns.get(command.nodeClaim());
    if (cooldown != null && Workflow.currentTimeMillis() < cooldown.untilMillis()) {
      StructuredLog.info(LOG, "replacement cooling down after a failure", "nodeclaim", command.nodeClaim(),
          "failures", cooldown.failures(), "retryAt", Instant.ofEpochMilli(cooldown.untilMillis()).toString());
      return null;
    }
    reconciler.followed.add(id);
    NodeReplacementWorkflow child = Workflow.newChildWorkflowStub(NodeReplacementWorkflow.class,
        ChildWorkflowStarts.disruption(reconciler.cluster, command));
    Promise<ReplacementResult> result = Async.function(child::replace, new ReplacementInput(reconciler.cluster, command,
        settings.launchSettings(), settings.drainPollSeconds(), settings.drainPollMaxSeconds())
        .withApprovalRequired(command.approvalRequired()));
    return new ReplacementStart(command, id, child, result);
  }

  /** Waits until the child has started (or was refused: one is already running for the NodeClaim) and follows it. */
  private void confirmStarted(ReplacementStart start) {
    DisruptionCommand command = start.command();
    String id = start.id();
    try {
      Workflow.getWorkflowExecution(start.child()).get();
    } catch (ChildWorkflowFailure failure) {
      if (ChildWorkflowStarts.alreadyStarted(failure)) {
        // The id is the guarantee: one replacement per NodeClaim at a time, whoever started it.
        StructuredLog.info(LOG, "replacement already running, not started again", "nodeclaim", command.nodeClaim(),
            "workflow", id);
      } else {
        StructuredLog.warn(LOG, "could not start replacement", "nodeclaim", command.nodeClaim(),
            "error", Failures.reason(failure));
      }
      return;
    }
    reconciler.replacementStarted(id);
    StructuredLog.info(LOG, "replacement started", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
        "method", command.method(), "reason", command.reason(), "workflow", id);
    start.result().handle((done, failure) -> {
      closed(command, id, failure);
      return null;
    });
  }

  /** The replacement's slot is free; a failure doubles its NodeClaim's cooldown, a success ends it. */
  private void closed(DisruptionCommand command, String id, RuntimeException failure) {
    reconciler.replacementsClosed++;
    if (failure != null) {
      Cooldown next = Cooldown.after(reconciler.cooldowns.get(command.nodeClaim()), command.nodeClaim(),
          Workflow.currentTimeMillis());
      reconciler.cooldowns.put(command.nodeClaim(), next);
      StructuredLog.warn(LOG, "replacement failed", "nodeclaim", command.nodeClaim(), "workflow", id,
          "error", Failures.reason(failure), "failures", next.failures(),
          "retryAt", Instant.ofEpochMilli(next.untilMillis()).toString());
    } else {
      reconciler.cooldowns.remove(command.nodeClaim());
    }
  }
}
