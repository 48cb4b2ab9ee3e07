package dev.farrier.workflows.replacement;

import static dev.farrier.workflows.EventReasons.KIND_NODE;
import static dev.farrier.workflows.replacement.ReplacementPhase.AWAITING_APPROVAL;
import static dev.farrier.workflows.replacement.ReplacementPhase.CORDONING;
import static dev.farrier.workflows.replacement.ReplacementPhase.FINALIZING;
import static dev.farrier.workflows.replacement.ReplacementPhase.LAUNCHING;
import static dev.farrier.workflows.replacement.ReplacementPhase.TAINTING;
import static dev.farrier.workflows.replacement.ReplacementPhase.TERMINATING;
import static dev.farrier.workflows.replacement.ReplacementRun.LOG;

import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.EventRecorder;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.workflows.activities.RecheckDisruptionRequest;
import dev.farrier.workflows.activities.TerminateInstanceRequest;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * The replacement's steps but the drain ({@link Drain}), each of one shape: a method over the one
 * {@link ReplacementRun} that says whether it has work, honours a pause or an abort first where a person may hold it
 * ({@link ReplacementRun#begin}), enters its phase and records the Events it causes with its own activity.
 * {@link NodeReplacementWorkflowImpl#replace} runs them in order.
 */
final class ReplacementSteps {
  /** How long a consolidation waits before it is checked again (Karpenter's consolidation TTL). */
  static final Duration CONSOLIDATION_RECHECK_DELAY = Duration.ofSeconds(15);

  private final ReplacementRun run;
  private final ReplacementLaunch launch;

  ReplacementSteps(ReplacementRun run, ReplacementLaunch launch) {
    this.run = run;
    this.launch = launch;
  }

  /**
   * A consolidation is planned from a snapshot that may be moments old: a pod may have landed on the node since.
   * Before touching anything, wait {@link #CONSOLIDATION_RECHECK_DELAY} and plan again (as Karpenter validates a
   * consolidation after its 15 s TTL); false when the claim is no longer planned for the same reason: the node is left
   * untouched, and the replacement says why on it.
   */
  boolean consolidationStillStands() {
    DisruptionCommand command = run.command();
    Workflow.sleep(CONSOLIDATION_RECHECK_DELAY);
    CandidateDecision still = run.planning().recheckDisruption(new RecheckDisruptionRequest(run.cluster(),
        command.nodeClaim(), command.reason(), command.consolidatedWith(), command.method()));
    if (!still.disrupt()) {
      StructuredLog.info(LOG, "consolidation no longer valid, node left alone", "nodeclaim", command.nodeClaim(), "node",
          command.nodeName(), "reason", command.reason(), "why", still.reason());
      if (command.nodeName() != null) {
        run.events().normal(KIND_NODE, command.nodeName(), EventReasons.DISRUPTION_INVALIDATED,
            command.reason() + " consolidation cancelled: " + still.reason());
      }
    }
    return still.disrupt();
  }

  /** DisruptionStarted on the node and its claim: recorded by the taint when there is a node to taint. */
  void announce() {
    DisruptionCommand command = run.command();
    EventRecorder events = run.events();
    List<EventRequest> started = events.onEach(EventReasons.NORMAL, EventReasons.DISRUPTION_STARTED,
        EventReasons.disruptionStarted(command.method(), command.reason(), command.detail()), run.nodeAndClaim());
    if (run.hasNode()) {
      events.holdForNextStep(started); // the taint comes first
    } else {
      events.record(started);
    }
  }

  void taint() {
    run.begin(TAINTING);
    if (!run.hasNode()) {
      return;
    }
    run.update(run.state().withNodeChanges(true, run.state().cordoned()));
    onNode(EventReasons.DISRUPTION_TAINTED, "tainted karpenter.sh/disrupted:NoSchedule (" + run.command().reason() + ")",
        caused -> run.nodes().taintDisrupted(run.nodeRef().recording(caused)));
  }

  /** Plans and launches the replacement ({@link ReplacementLaunch}); a method that replaces nothing only logs. */
  void launch() {
    if (run.command().method() != DisruptionMethod.REPLACE) {
      run.logDecision(null);
      return;
    }
    if (run.state().replacement() != null) {
      return;
    }
    run.begin(LAUNCHING);
    launch.run();
  }

  /** Holds once the replacement is up until an operator approves (or aborts), when the input requires it. */
  void awaitApproval() {
    if (!run.input().approvalRequired() || run.state().approved() || run.forceful()) {
      return;
    }
    run.enter(AWAITING_APPROVAL);
    run.setBlocker(new Blocker(Blocker.Kind.APPROVAL, "awaiting approval: replacement "
        + (run.state().replacementName() == null ? "(none needed)" : run.state().replacementName())
        + " is up; Approve to drain " + run.nodeNameOrClaim(), List.of(), List.of(), Workflow.currentTimeMillis()));
    Workflow.await(() -> run.state().approved() || run.abortRequested() || run.urgent());
    run.setBlocker(null);
    if (run.abortRequested()) {
      throw new AbortRequested();
    }
  }

  void cordon() {
    if (!run.hasNode()) {
      return;
    }
    run.begin(CORDONING);
    onNode(EventReasons.CORDONED, "cordoned for " + run.command().reason(), caused -> {
      // Only a cordon this workflow made is undone by a rollback.
      boolean cordonedNow = Boolean.TRUE.equals(run.nodes().cordon(run.nodeRef().recording(caused)));
      run.update(run.state().withNodeChanges(run.state().tainted(), run.state().cordoned() || cordonedNow));
    });
  }

  /** The last hold before the point of no return; says when the node went before its replacement is up. */
  void drained() {
    run.checkpoint();
    if (launch.stillRunning()) {
      StructuredLog.info(LOG, run.goingAway() + " node drained, replacement still launching", "nodeclaim",
          run.command().nodeClaim(), "node", run.command().nodeName(), "replacement", run.state().replacementName());
    }
  }

  /** Terminates the instance and waits until it is gone, in one activity. From here the node cannot be given back. */
  void terminate() {
    run.enter(TERMINATING);
    DisruptionCommand command = run.command();
    if (command.instanceId() == null) {
      return;
    }
    List<EventRequest> terminated = List.of(run.events().event(KIND_NODE, run.nodeNameOrClaim(), EventReasons.NORMAL,
        EventReasons.TERMINATED, "terminated instance " + command.instanceId()));
    run.events().withStep(terminated, caused -> run.claims().terminateInstanceAndWait(
        new TerminateInstanceRequest(run.cluster(), command.nodeClaim(), command.instanceId(), caused)));
  }

  /** Deletes the Node and NodeClaim in one activity, with DisruptionCompleted (the claim's last Event). */
  void deleteNodeAndClaim() {
    run.enter(FINALIZING);
    DisruptionCommand command = run.command();
    ReplacementState state = run.state();
    List<EventRequest> completed = List.of(run.events().event(EventReasons.KIND_NODE_CLAIM, command.nodeClaim(),
        EventReasons.NORMAL, EventReasons.DISRUPTION_COMPLETED, "disrupted (" + command.reason() + "): "
            + state.evicted().size() + " pod(s) evicted"
            + (state.replacementName() == null ? "" : ", replaced by " + state.replacementName())));
    run.events().withStep(completed, caused -> run.claims().deleteNodeAndClaim(run.nodeRef().recording(caused)));
    launch.collect();
  }

  /** A Normal Event on the node, recorded by the step's own activity. */
  private void onNode(String reason, String message, Consumer<List<EventRequest>> step) {
    run.events().withStep(List.of(run.events().event(KIND_NODE, run.command().nodeName(), EventReasons.NORMAL, reason,
        message)), step);
  }
}
