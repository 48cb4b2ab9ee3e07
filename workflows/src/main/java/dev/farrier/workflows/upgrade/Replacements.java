package dev.farrier.workflows.upgrade;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.model.ReplacementResult;
import dev.farrier.workflows.ChildWorkflowStarts;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.ReplacementInput;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.SignalExternalWorkflowException;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rollout's replacements: each an ordinary {@code disrupt/<nodeclaim>} child marked with its owner, started for
 * the planner's commands (batches, rolling slots and the rollback alike), told when the rollout is aborted, and what
 * each came to.
 */
final class Replacements {
  /** The failure type a carried replacement's failure is given again in the run that took it over. */
  static final String CARRIED_FAILURE = "CarriedReplacementFailed";

  private final Rollout rollout;

  Replacements(Rollout rollout) {
    this.rollout = rollout;
  }

  /** What the replacements of one batch came to. */
  record Outcomes(List<String> replaced, List<String> failed, List<String> launchedClaims, List<String> newNodes) {}

  /** What one replacement came to: its claim replaced, or why it failed; the claim it launched, if any. */
  record Outcome(boolean replaced, String failed, String launched, String newNode) {}

  /**
   * Starts one replacement per command and waits for all of them. An abort (when {@code abortable}) is passed on to the
   * replacements still running; they roll themselves back if they can.
   */
  Outcomes replaceAll(List<DisruptionCommand> commands, boolean abortable) {
    List<String> failed = new ArrayList<>();
    Map<String, Promise<ReplacementResult>> running = start(commands, failed);
    boolean abortPassedOn = false;
    while (!running.values().stream().allMatch(Promise::isCompleted)) {
      Workflow.await(() -> running.values().stream().allMatch(Promise::isCompleted) || (abortable && rollout.abortRequested()));
      if (abortable && rollout.abortRequested() && !abortPassedOn) {
        abortPassedOn = true;
        passAbortOn(running);
      }
    }
    List<String> replaced = new ArrayList<>();
    List<String> launched = new ArrayList<>();
    List<String> newNodes = new ArrayList<>();
    running.forEach((claim, result) -> {
      Outcome done = outcome(claim, result);
      if (done.launched() != null) {
        launched.add(done.launched());
      }
      if (done.failed() != null) {
        failed.add(done.failed());
      } else if (done.replaced()) {
        replaced.add(claim);
        if (done.newNode() != null) {
          newNodes.add(done.newNode());
        }
      }
    });
    return new Outcomes(replaced, failed, launched, newNodes);
  }

  /**
   * Starts one {@code disrupt/<nodeclaim>} replacement per command and returns the ones that started, by claim; the ones
   * that could not start are added to {@code failed}. All are asked for in one workflow task, then their starts awaited:
   * one start after the other (a workflow task round trip each) took a batch of 50 on a 500-node fleet about 20 s to
   * reach full concurrency.
   */
  Map<String, Promise<ReplacementResult>> start(List<DisruptionCommand> commands, List<String> failed) {
    ReconcilerSettings settings = rollout.claim().settings() == null ? ReconcilerSettings.DEFAULTS : rollout.claim().settings();
    Map<String, Promise<ReplacementResult>> running = new LinkedHashMap<>();
    List<Runnable> starts = new ArrayList<>();
    for (DisruptionCommand command : commands) {
      NodeReplacementWorkflow child = Workflow.newChildWorkflowStub(NodeReplacementWorkflow.class,
          ChildWorkflowStarts.disruption(rollout.input.cluster(), command));
      Promise<ReplacementResult> result = Async.function(child::replace, new ReplacementInput(rollout.input.cluster(),
          command, settings.launchSettings(), settings.drainPollSeconds(), settings.drainPollMaxSeconds())
          .ownedBy(rollout.workflowId));
      Runnable confirm = () -> {
        try {
          Workflow.getWorkflowExecution(child).get();
          running.put(command.nodeClaim(), result);
        } catch (ChildWorkflowFailure failure) {
          if (!ChildWorkflowStarts.alreadyStarted(failure)) {
            failed.add(command.nodeClaim() + ": could not start (" + Failures.reason(failure) + ")");
          }
          // Already started: a replacement someone else started (an expiry) runs; the next plan counts it as remaining.
        }
      };
      starts.add(confirm);
    }
    starts.forEach(Runnable::run);
    return running;
  }

  /**
   * Tells the replacements still running that the rollout was aborted ({@link NodeReplacementWorkflow#rolloutAborted}):
   * they roll themselves back if they can, and leave their nodes unmarked for the next rollout.
   */
  void passAbortOn(Map<String, Promise<ReplacementResult>> running) {
    running.forEach((claim, result) -> {
      if (!result.isCompleted()) {
        try {
          Workflow.newExternalWorkflowStub(NodeReplacementWorkflow.class, WorkflowIds.disruption(claim))
              .rolloutAborted("rollout " + rollout.workflowId + " aborted: " + rollout.thisRun().abort().describe());
        } catch (ApplicationFailure | SignalExternalWorkflowException closed) {
          // It closed after all (the signal found no running workflow: NOT_FOUND); its result says how.
        }
      }
    });
  }

  static Outcome outcome(String claim, Promise<ReplacementResult> result) {
    try {
      ReplacementResult done = result.get();
      return new Outcome("Done".equals(done.outcome()), null, done.replacementNodeClaim(), done.replacementNode());
    } catch (TemporalFailure failure) {
      return new Outcome(false, claim + " failed: " + reasonOf(failure), null, null);
    }
  }

  static ApplicationFailure carriedFailure(String reason) {
    return ApplicationFailure.newFailure(reason, CARRIED_FAILURE);
  }

  /** Why a replacement failed: a carried one as the run before (or the follow) said, a child's from its failure. */
  static String reasonOf(RuntimeException failure) {
    return failure instanceof ApplicationFailure carried && CARRIED_FAILURE.equals(carried.getType())
        ? carried.getOriginalMessage() : Failures.reason(failure);
  }
}
