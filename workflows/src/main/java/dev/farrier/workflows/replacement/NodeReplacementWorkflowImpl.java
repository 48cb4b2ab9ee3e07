package dev.farrier.workflows.replacement;

import dev.farrier.model.ReplacementResult;
import static dev.farrier.workflows.EventReasons.KIND_NODE;
import static dev.farrier.workflows.Refusals.refuseIf;
import static dev.farrier.workflows.replacement.ReplacementPhase.ABORTED;
import static dev.farrier.workflows.replacement.ReplacementPhase.AWAITING_APPROVAL;
import static dev.farrier.workflows.replacement.ReplacementPhase.AWAITING_RETRY;
import static dev.farrier.workflows.replacement.ReplacementPhase.CORDONING;
import static dev.farrier.workflows.replacement.ReplacementPhase.DONE;
import static dev.farrier.workflows.replacement.ReplacementPhase.DRAINING;
import static dev.farrier.workflows.replacement.ReplacementPhase.FAILED;
import static dev.farrier.workflows.replacement.ReplacementPhase.FINALIZING;
import static dev.farrier.workflows.replacement.ReplacementPhase.LAUNCHING;
import static dev.farrier.workflows.replacement.ReplacementPhase.ROLLING_BACK;
import static dev.farrier.workflows.replacement.ReplacementPhase.TAINTING;
import static dev.farrier.workflows.replacement.ReplacementPhase.TERMINATING;

import dev.farrier.workflows.ActivityStubs;
import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.EventRecorder;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.ReconcilerSignals;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.Waits;
import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.workflows.activities.DrainRequest;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.workflows.activities.NodeActivities;
import dev.farrier.workflows.activities.NodeClaimActivities;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.workflows.activities.RecheckDisruptionRequest;
import dev.farrier.workflows.activities.TerminateInstanceRequest;
import dev.farrier.model.LaunchSettings;
import io.temporal.common.SearchAttributeUpdate;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * Replaces one node. The script ({@link #runSteps}) reads top to bottom: taint, launch the replacement
 * ({@link ReplacementLaunch}), wait for approval if required, cordon, drain, terminate, finalize. Everything the
 * workflow knows is one {@link ReplacementState}; the drain's decisions are {@link DrainPolicy}'s.
 *
 * <p>Operators steer it with validated Updates (see {@link NodeReplacementWorkflow}). {@code Abort} is honoured until
 * Terminating starts and rolls back what was done: the taint and (if this workflow set it) the cordon are removed, a
 * replacement whose launch had not completed is cancelled (its own saga terminates the instance and deletes the
 * claim), an initialized replacement is kept as ordinary capacity, and the node is marked so the planner leaves it
 * alone. A step that fails is not the end: the node is given back (before the point of no return) and the
 * replacement waits in AwaitingRetry for an operator's {@code Retry} or {@code Abort}, for at most
 * {@link #RETRY_WINDOW} (past the point of no return: {@link #RETRY_WINDOW_PAST_NO_RETURN}), then fails as before.
 *
 * <p>An interrupted node (input {@link ReplacementInput#interruption()} or signal {@code interrupted}) is going away
 * in minutes whatever happens: from then on the workflow does not wait for its replacement to initialize, it cordons
 * and drains at once (PodDisruptionBudgets still hold, passes without backoff) while the launch proceeds in parallel;
 * a replacement that cannot be planned or fails to launch no longer stops the drain, and a pause is lifted.
 *
 * <p>A forceful expiry ({@link DisruptionCommand#forceful()}, Karpenter v1's expiration) drains the same way, from
 * the start: cordoned and drained at once while the replacement (only when pods need one) launches in parallel, no
 * approval waited for, and nothing about the replacement stops the drain. PDBs and do-not-disrupt pods hold until the
 * terminationGracePeriod, which counts from the start of the disruption (Karpenter counts it from the NodeClaim's
 * deletion), not from a retried drain. Unlike an interruption it keeps the drain's backoff, holds pods without a
 * controller and can be paused: the node is not going away by itself. A node repair is a forceful command too, with a
 * terminationGracePeriod of 0, so its pods are deleted past PDBs from the first pass, as Karpenter's repair does.
 *
 * <p>A consolidation ({@link DisruptionCommand#consolidation()}) is checked again before any step: after
 * {@link #CONSOLIDATION_RECHECK_DELAY} the planner is asked whether it still stands, and the workflow ends
 * {@value #OUTCOME_INVALIDATED}, the node untouched, when it does not.
 *
 * <p>Each step records the Events it causes (the taint DisruptionStarted and DisruptionTainted, the cordon Cordoned, the
 * drain pass an Evicted per pod, the termination Terminated, the final delete DisruptionCompleted); the others are one
 * {@code recordEvents} activity per call. The instance is terminated and waited for in one activity, the Node and
 * NodeClaim deleted in one.
 */
public class NodeReplacementWorkflowImpl implements NodeReplacementWorkflow {
  private static final Logger log = Workflow.getLogger(NodeReplacementWorkflowImpl.class);

  /** Failures this workflow raises itself: their message and type are the workflow's result as they are. */
  private static final List<String> OWN_FAILURES =
      List.of(FailureTypes.REPLACEMENT_LAUNCH_FAILED, FailureTypes.NO_REPLACEMENT_POSSIBLE);

  /** About 11 history events a blocked pass: a few thousand events per run, far below Temporal's limits. */
  static final int MAX_DRAIN_PASSES_PER_RUN = 200;


  /** How long a step that failed before the point of no return waits for a Retry before the replacement fails. */
  static final Duration RETRY_WINDOW = Duration.ofMinutes(10);
  /** Past the point of no return the node is drained and half gone: a person has a day to retry the last steps. */
  static final Duration RETRY_WINDOW_PAST_NO_RETURN = Duration.ofHours(24);

  static final String OUTCOME_DONE = "Done";
  static final String OUTCOME_ABORTED = "Aborted";
  /** A consolidation found no longer valid when checked again: nothing was done. */
  static final String OUTCOME_INVALIDATED = "Invalidated";
  /** How long a consolidation waits before it is checked again (Karpenter's consolidation TTL). */
  static final Duration CONSOLIDATION_RECHECK_DELAY = Duration.ofSeconds(15);

  /** Thrown inside the workflow method when an accepted abort is noticed; caught there, never leaves it. */
  static final class AbortRequested extends RuntimeException {
    AbortRequested() {
      super(null, null, false, false);
    }
  }

  private ReplacementInput input;
  private DisruptionCommand command;
  private ReplacementState state = ReplacementState.initial();
  private OperatorRequest abortRequest;
  /** The abort came as {@link #rolloutAborted}, the signal a rollout sends the replacements it owns. */
  private boolean abortedByRollout;
  private boolean retryRequested;
  private boolean interruptionNoticed;
  private ReplacementLaunch launch;

  private String cluster;
  private NodeActivities nodes;
  private NodeClaimActivities claims;
  private PlanningActivities planning;
  private EventRecorder events;

  @Override
  public ReplacementResult replace(ReplacementInput input) {
    this.input = input;
    cluster = input.cluster();
    command = input.command();
    LaunchSettings launchSettings = input.launchSettings() == null ? LaunchSettings.DEFAULTS : input.launchSettings();
    nodes = ActivityStubs.nodes();
    claims = ActivityStubs.nodeClaims(launchSettings);
    planning = ActivityStubs.planning();
    boolean resumed = input.state() != null;
    if (resumed) {
      state = input.state();
    }
    events = new EventRecorder(nodes, cluster);
    if (state.interruption() == null && input.interruption() != null) {
      state = state.withInterruption(input.interruption());
    }
    if (!resumed && forceful()) {
      // Karpenter's deletion of the expired NodeClaim starts its terminationGracePeriod; this is that moment.
      state = state.withGraceEndsAt(DrainPolicy.graceEndsAt(command.terminationGracePeriodSeconds(), Workflow.currentTimeMillis()));
    }
    launch = new ReplacementLaunch(this, planning, cluster, command, launchSettings);
    upsertIdentity();
    if (!resumed && command.consolidation()) {
      CandidateDecision still = recheckConsolidation();
      if (!still.disrupt()) {
        return closed(result(OUTCOME_INVALIDATED));
      }
    }
    if (!resumed) {
      List<EventRequest> started = events.onEach(EventReasons.NORMAL, EventReasons.DISRUPTION_STARTED,
          EventReasons.disruptionStarted(command.method(), command.reason(), command.detail()), nodeAndClaim());
      if (command.nodeName() != null) {
        events.holdForNextStep(started); // the taint comes first
      } else {
        events.record(started);
      }
    }

    boolean drainNext = resumed;
    while (true) {
      try {
        try {
          runSteps(drainNext);
          return closed(afterHandlers(finish()));
        } catch (TemporalFailure failure) {
          RuntimeException failed = fail(failure);
          if (!awaitRetry(failed)) {
            tellReconcilerClosed();
            throw failed;
          }
          drainNext = false;
        }
      } catch (AbortRequested abort) {
        return closed(afterHandlers(rollBackAbort()));
      }
    }
  }

  private ReplacementResult closed(ReplacementResult result) {
    tellReconcilerClosed();
    return result;
  }

  /**
   * Best effort, as the replacement closes: its budget slot is free. A replacement with no reconciler running (gone, or
   * not started yet) has nobody to tell; the reconciler's next planning round, at most its interval later, sees the slot.
   */
  private void tellReconcilerClosed() {
    ReconcilerSignals.tell(cluster, NodeReplacementWorkflow.REPLACEMENT_CLOSED_SIGNAL, command.nodeClaim(), "nodeclaim",
        command.nodeClaim());
  }

  /**
   * A consolidation is planned from a snapshot that may be moments old: a pod may have landed on the node since.
   * Before touching anything, wait {@link #CONSOLIDATION_RECHECK_DELAY} and plan again (as Karpenter validates a
   * consolidation after its 15 s TTL); the replacement ends with {@value #OUTCOME_INVALIDATED} when the claim is no longer
   * planned for the same reason, the node untouched, and says why on the node.
   */
  private CandidateDecision recheckConsolidation() {
    Workflow.sleep(CONSOLIDATION_RECHECK_DELAY);
    CandidateDecision still = planning.recheckDisruption(new RecheckDisruptionRequest(cluster, command.nodeClaim(), command.reason(),
        command.consolidatedWith()));
    if (!still.disrupt()) {
      StructuredLog.info(log, "consolidation no longer valid, node left alone", "nodeclaim", command.nodeClaim(), "node",
          command.nodeName(), "reason", command.reason(), "why", still.reason());
      if (command.nodeName() != null) {
        events.normal(KIND_NODE, command.nodeName(), EventReasons.DISRUPTION_INVALIDATED,
            command.reason() + " consolidation cancelled: " + still.reason());
      }
    }
    return still;
  }

  /** The steps, in order; a retry before the point of no return starts over, after it only the last steps run again. */
  private void runSteps(boolean drainNext) {
    if (!state.pastPointOfNoReturn()) {
      if (!drainNext) {
        checkpoint();
        enter(TAINTING);
        if (command.nodeName() != null) {
          state = state.withNodeChanges(true, state.cordoned());
          events.withStep(List.of(events.event(KIND_NODE, command.nodeName(), EventReasons.NORMAL, EventReasons.DISRUPTION_TAINTED,
              "tainted karpenter.sh/disrupted:NoSchedule (" + command.reason() + ")")),
              caused -> nodes.taintDisrupted(nodeRef().recording(caused)));
        }
        if (command.method() != DisruptionMethod.REPLACE) {
          logDecision(null);
        } else if (state.replacement() == null) {
          checkpoint();
          enter(LAUNCHING);
          launch.run();
        }
        if (input.approvalRequired() && !state.approved() && !forceful()) {
          awaitApproval();
        }
        if (command.nodeName() != null) {
          checkpoint();
          enter(CORDONING);
          events.withStep(List.of(events.event(KIND_NODE, command.nodeName(), EventReasons.NORMAL, EventReasons.CORDONED,
              "cordoned for " + command.reason())), caused -> {
                // Only a cordon this workflow made is undone by a rollback.
                boolean cordonedNow = Boolean.TRUE.equals(nodes.cordon(nodeRef().recording(caused)));
                state = state.withNodeChanges(state.tainted(), state.cordoned() || cordonedNow);
              });
        }
      }
      if (command.nodeName() != null) {
        drain();
      }
      checkpoint();
      if (launch.stillRunning()) {
        StructuredLog.info(log, goingAway() + " node drained, replacement still launching", "nodeclaim", command.nodeClaim(),
            "node", command.nodeName(), "replacement", state.replacementName());
      }
    }
    // From here the node is going away: an abort can no longer give it back.
    enter(TERMINATING);
    if (command.instanceId() != null) {
      terminate();
    }
    enter(FINALIZING);
    events.withStep(completedEvents(), caused -> claims.deleteNodeAndClaim(nodeRef().recording(caused)));
    launch.collect();
  }

  /** Terminates the instance and waits until it is gone, in one activity. */
  private void terminate() {
    List<EventRequest> terminated = List.of(events.event(KIND_NODE, nodeNameOrClaim(), EventReasons.NORMAL,
        EventReasons.TERMINATED, "terminated instance " + command.instanceId()));
    events.withStep(terminated, caused -> claims.terminateInstanceAndWait(
        new TerminateInstanceRequest(cluster, command.nodeClaim(), command.instanceId(), caused)));
  }

  /** DisruptionCompleted, the NodeClaim's last Event. */
  private List<EventRequest> completedEvents() {
    return List.of(events.event(EventReasons.KIND_NODE_CLAIM, command.nodeClaim(), EventReasons.NORMAL,
        EventReasons.DISRUPTION_COMPLETED, "disrupted (" + command.reason() + "): " + state.evicted().size() + " pod(s) evicted"
            + (state.replacementName() == null ? "" : ", replaced by " + state.replacementName())));
  }

  private ReplacementResult finish() {
    enter(DONE);
    StructuredLog.info(log, "disrupted nodeclaim", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
        "nodepool", command.nodePool(), "instance", command.instanceId(), "reason", command.reason(), "replacement", state.replacementName(),
        "evicted", state.evicted().size());
    return result(OUTCOME_DONE);
  }

  // Operator actions: each validator refuses what makes no sense now, with a message; the handler then only records it.

  @Override
  public void validatePause(OperatorRequest request) {
    refuseWhenFinishedOrGone("pause");
    refuseIf(state.paused(), "already paused; resume it with Resume");
    refuseIf(urgent(), "the node is being interrupted (" + reasonOfInterruption() + "): its drain cannot wait");
    refuseIf(state.phase() == AWAITING_RETRY || state.phase() == AWAITING_APPROVAL,
        "it is " + state.phase() + " already: nothing runs until an operator acts");
  }

  @Override
  public String pauseReplacement(OperatorRequest request) {
    state = state.withPaused(true);
    return said("paused before its next step", request);
  }

  @Override
  public void validateResume(OperatorRequest request) {
    refuseIf(state.phase().finished(), "it has ended (" + state.phase() + ")");
    refuseIf(!state.paused(), "it is not paused (phase " + state.phase() + ")");
  }

  @Override
  public String resumeReplacement(OperatorRequest request) {
    state = state.withPaused(false);
    return said("resumed", request);
  }

  @Override
  public void validateAbort(OperatorRequest request) {
    refuseWhenFinishedOrGone("abort");
    refuseIf(abortRequest != null, "an abort is already rolling it back (" + (abortRequest == null ? "" : abortRequest.describe()) + ")");
    refuseIf(request == null || !request.hasReason(), "an abort needs a reason (it is recorded on the node)");
  }

  @Override
  public String abortReplacement(OperatorRequest request) {
    abortRequest = request;
    return said("abort accepted in phase " + state.phase() + ": rolling back", request);
  }

  @Override
  public void validateRetry(OperatorRequest request) {
    refuseIf(state.phase() != AWAITING_RETRY, "nothing to retry: no step has failed (phase " + state.phase() + ")");
    refuseIf(retryRequested, "a retry is already starting");
  }

  @Override
  public String retryReplacement(OperatorRequest request) {
    retryRequested = true;
    return said(state.pastPointOfNoReturn() ? "retrying termination" : "retrying the replacement from the start", request);
  }

  @Override
  public void validateForceDrain(OperatorRequest request) {
    refuseIf(request == null || !request.hasReason(), "a force-drain needs a reason (it is recorded as an Event)");
    refuseIf(state.phase() != DRAINING, "force-drain applies while the node drains; this replacement is " + state.phase()
        + (state.phase() == LAUNCHING || state.phase() == TAINTING || state.phase() == CORDONING ? " (not draining yet)" : ""));
    refuseIf(state.forceDrain() != null, "already forced (" + (state.forceDrain() == null ? "" : state.forceDrain().describe()) + ")");
    refuseIf(abortRequest != null, "an abort is rolling it back");
  }

  @Override
  public String forceDrain(OperatorRequest request) {
    int left = state.podsLeft().size();
    state = state.withForceDrain(request);
    StructuredLog.warn(log, "drain forced by operator", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
        "reason", request.describe(), "podsLeft", left);
    recordOnNodeAndClaim(EventReasons.WARNING, EventReasons.FORCE_DRAIN, "drain forced past PodDisruptionBudgets and "
        + "do-not-disrupt: " + request.describe() + "; " + left + " pod(s) left to delete");
    return said("forcing the drain: the " + left + " pod(s) left are deleted past their PDBs", request);
  }

  @Override
  public void validateApprove(OperatorRequest request) {
    refuseIf(state.phase() != AWAITING_APPROVAL, "it is not waiting for approval (phase " + state.phase() + ")");
  }

  @Override
  public String approve(OperatorRequest request) {
    state = state.withApproved(true);
    return said("approved: cordoning and draining " + nodeNameOrClaim(), request);
  }

  @Override
  public void rolloutAborted(String reason) {
    // May run before the workflow method (a signal in the first workflow task): whose abort it is, is decided later.
    if (state.pastPointOfNoReturn() || abortRequest != null) {
      StructuredLog.info(log, "rollout's abort ignored", "nodeclaim", command == null ? null : command.nodeClaim(),
          "phase", state.phase(), "reason", reason);
      return;
    }
    abortRequest = OperatorRequest.of(reason);
    abortedByRollout = true;
  }

  @Override
  public void interrupted(Interruption notice) {
    if (state.pastPointOfNoReturn() || state.interruption() != null || notice == null) {
      StructuredLog.info(log, "interruption signal ignored", "nodeclaim", command == null ? null : command.nodeClaim(),
          "phase", state.phase(), "reason", notice == null ? null : notice.reason());
      return;
    }
    state = state.withInterruption(notice);
  }

  @Override
  public ReplacementProgress progress() {
    Blocker blocker = state.blocker();
    return new ReplacementProgress(
        command == null ? null : command.nodeClaim(),
        command == null ? null : command.nodeName(),
        state.phase().label(), state.replacementName(), state.podsLeft(), state.evicted(),
        blocker == null ? null : blocker.summary(), state.paused(),
        command == null ? null : urgent() ? state.interruption().reason() : command.reason(),
        command == null ? null : command.nodePool(),
        blocker, state.forceDrain() == null ? null : state.forceDrain().describe(), state.pastPointOfNoReturn());
  }

  private void refuseWhenFinishedOrGone(String action) {
    refuseIf(state.phase().finished(), "it has ended (" + state.phase() + "): nothing to " + action);
    refuseIf(state.pastPointOfNoReturn(), "the node is past the point of no return (" + state.phase()
        + "): its instance is being terminated");
  }


  private String said(String what, OperatorRequest request) {
    String text = "disrupt/" + command.nodeClaim() + ": " + what;
    return request != null && request.hasReason() ? text + " (" + request.describe() + ")" : text;
  }

  // Waiting for people.

  /** Holds once the replacement is up until an operator approves (or aborts). */
  private void awaitApproval() {
    enter(AWAITING_APPROVAL);
    setBlocker(new Blocker(Blocker.Kind.APPROVAL, "awaiting approval: replacement "
        + (state.replacementName() == null ? "(none needed)" : state.replacementName()) + " is up; Approve to drain "
        + nodeNameOrClaim(), List.of(), List.of(), Workflow.currentTimeMillis()));
    Workflow.await(() -> state.approved() || abortRequest != null || urgent());
    setBlocker(null);
    if (abortRequest != null) {
      throw new AbortRequested();
    }
  }

  /**
   * After a failed step (already rolled back by {@link #fail}), waits for an operator's Retry. Returns whether to run
   * the steps again; false when this run cannot hold (cancellation) or nobody retried in time. An abort while waiting
   * rolls back and ends the workflow from here.
   */
  private boolean awaitRetry(RuntimeException failed) {
    if (failed instanceof CanceledFailure) {
      return false;
    }
    if (input.owner() != null && !state.pastPointOfNoReturn()) {
      // A rollout's replacement: the node was given back; the rollout decides what happens next.
      recordOnNodeAndClaim(EventReasons.WARNING, EventReasons.DISRUPTION_FAILED, failed.getMessage() + "; reported to " + input.owner());
      enter(FAILED);
      return false;
    }
    enter(AWAITING_RETRY);
    setBlocker(new Blocker(Blocker.Kind.STEP_FAILED, DrainPolicy.truncate("step failed: " + failed.getMessage()
        + "; Retry or Abort"), List.of(), List.of(), Workflow.currentTimeMillis()));
    recordOnNodeAndClaim(EventReasons.WARNING, EventReasons.DISRUPTION_FAILED, failed.getMessage() + "; waiting for Retry");
    Duration window = state.pastPointOfNoReturn() ? RETRY_WINDOW_PAST_NO_RETURN : RETRY_WINDOW;
    boolean acted = Waits.awaitOrTimeout(window,
        () -> retryRequested || urgent() || (abortRequest != null && !state.pastPointOfNoReturn()));
    setBlocker(null);
    if (!acted) {
      enter(FAILED);
      return false;
    }
    if (abortRequest != null && !retryRequested) {
      throw new AbortRequested();
    }
    if (!retryRequested) {
      // Interrupted while waiting: the node goes away whatever happens, so its drain cannot wait for a person.
      StructuredLog.info(log, "interrupted while waiting for a retry, retrying now", "nodeclaim", command.nodeClaim(),
          "reason", reasonOfInterruption());
    }
    retryRequested = false;
    StructuredLog.info(log, "retrying replacement", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
        "pastPointOfNoReturn", state.pastPointOfNoReturn());
    return true;
  }

  // Interruption.

  /** The node is being interrupted: it goes away within minutes whatever happens. */
  boolean urgent() {
    return state.interruption() != null;
  }

  /** A forceful expiry (or repair): drained at once, its terminationGracePeriod counted from the start. */
  boolean forceful() {
    return command.forceful();
  }

  /**
   * The node goes whatever happens to its replacement (interrupted, or a forceful expiry): it is drained without
   * waiting for the replacement to initialize, and a replacement that cannot be planned or launched does not stop it.
   */
  boolean drainsNow() {
    return urgent() || forceful();
  }

  /** How the node that {@link #drainsNow()} is named in logs and Events. */
  String goingAway() {
    return urgent() ? "interrupted" : command.reason();
  }

  private String reasonOfInterruption() {
    return state.interruption() == null ? null : state.interruption().reason();
  }

  /** Once per run: lift a pause, show the reason in the search attributes, and say so on the node. */
  void noticeInterruption() {
    if (!urgent() || interruptionNoticed) {
      return;
    }
    interruptionNoticed = true;
    state = state.withPaused(false);
    Interruption interruption = state.interruption();
    Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.REASON.valueSet(interruption.reason()));
    StructuredLog.info(log, "node interrupted, draining now", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
        "instance", command.instanceId(), "reason", interruption.reason(), "detail", interruption.detail(), "phase", state.phase());
    events.warning(KIND_NODE, nodeNameOrClaim(), EventReasons.INTERRUPTED, interruption.reason() + ": " + interruption.detail()
        + "; draining now" + (state.replacement() == null && state.replacementName() != null
            ? ", replacement " + state.replacementName() + " launching in parallel" : ""));
  }

  // The drain.

  /** Drain passes until no pod is left, backing off while nothing moves; bypasses PDBs once the grace period ends. */
  private void drain() {
    boolean resumedDrain = state.phase() == DRAINING;
    enter(DRAINING);
    long firstWait = Math.max(1, input.drainPollSeconds());
    long maxWait = Math.max(firstWait, input.drainPollMaxSeconds());
    if (!resumedDrain && !forceful()) {
      state = state.withGraceEndsAt(DrainPolicy.graceEndsAt(command.terminationGracePeriodSeconds(), Workflow.currentTimeMillis()));
    }
    long waitSeconds = firstWait;
    long lastInstanceCheck = Workflow.currentTimeMillis();
    boolean instanceGone = false;
    for (int pass = 1; ; pass++) {
      if (pass > MAX_DRAIN_PASSES_PER_RUN || Workflow.getInfo().isContinueAsNewSuggested()) {
        continueDraining();
      }
      checkpoint();
      boolean bypassPdb = DrainPolicy.bypassPdb(Workflow.currentTimeMillis(), state.graceEndsAtMillis(), state.forceDrain() != null);
      DrainStatus status = nodes.drainStep(new DrainRequest(cluster, command.nodeName(), command.nodeClaim(), bypassPdb,
          !urgent(), instanceGone, true));
      state = state.withDrainPass(status.evicted(), status.remaining());
      if (status.drained()) {
        setBlocker(null);
        return;
      }
      if (!instanceGone && command.instanceId() != null
          && DrainPolicy.checkInstance(Workflow.currentTimeMillis(), lastInstanceCheck, urgent())) {
        lastInstanceCheck = Workflow.currentTimeMillis();
        instanceGone = instanceConfirmedGone();
        if (instanceGone) {
          // An instance that is gone is not a node to drain: its pods are dead; release them now, PDBs or not.
          setBlocker(null);
          StructuredLog.info(log, "instance gone, releasing its pods", "nodeclaim", command.nodeClaim(), "node",
              command.nodeName(), "instance", command.instanceId(), "podsLeft", status.remaining().size());
          recordOnNodeAndClaim(EventReasons.WARNING, EventReasons.INSTANCE_GONE, "instance " + command.instanceId()
              + " is gone: its " + status.remaining().size() + " pod(s) are released at once, not drained");
          continue;
        }
      }
      reportBlocker(status);
      var wait = DrainPolicy.nextWait(waitSeconds, firstWait, maxWait, !status.evicted().isEmpty(), urgent(),
          Workflow.currentTimeMillis(), state.graceEndsAtMillis());
      if (wait.millis() > 0) {
        ReplacementState before = state;
        Waits.awaitOrTimeout(Duration.ofMillis(wait.millis()), () -> abortRequest != null
            || (urgent() && !interruptionNoticed) || state.forceDrain() != before.forceDrain());
      }
      waitSeconds = wait.nextSeconds();
    }
  }

  /** The cloud says the instance is terminated or unknown; a failed read proves nothing. */
  private boolean instanceConfirmedGone() {
    try {
      return claims.instanceState(new TerminateInstanceRequest(cluster, command.nodeClaim(), command.instanceId())).gone();
    } catch (ActivityFailure failure) {
      StructuredLog.warn(log, "instance state unknown, draining on", "nodeclaim", command.nodeClaim(), "instance",
          command.instanceId(), "error", Failures.reason(failure));
      return false;
    }
  }

  /** Names a new blocker in the search attributes, the log and Events on the node (and its claim); not one per pass. */
  private void reportBlocker(DrainStatus status) {
    Blocker previous = state.blocker();
    Blocker next = DrainPolicy.blocker(status, Workflow.currentTimeMillis(), previous);
    setBlocker(next);
    if (next != null && !next.sameAs(previous)) {
      StructuredLog.info(log, "drain blocked", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
          "blockedBy", next.summary(), "pods", next.pods(), "podsLeft", status.remaining().size());
      recordOnNodeAndClaim(EventReasons.WARNING, EventReasons.DRAIN_BLOCKED, "drain blocked by " + next.summary()
          + "; held: " + String.join(", ", next.pods()) + "; " + status.remaining().size() + " pod(s) left");
    } else if (next == null && previous != null && !status.drained()) {
      StructuredLog.info(log, "drain unblocked", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
          "was", previous.summary());
    }
  }

  /**
   * Continues as new with the whole state, so a drain blocked for days keeps a bounded history. An action that
   * arrived meanwhile is handled first: an abort rolls back here rather than being carried.
   */
  private void continueDraining() {
    Workflow.await(Workflow::isEveryHandlerFinished);
    checkpoint();
    launch.collect();
    StructuredLog.info(log, "drain continues as new", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
        "podsLeft", state.podsLeft().size(), "blockedBy", state.blocker() == null ? null : state.blocker().summary());
    ReplacementState carried = urgent() ? state : state.withInterruption(null);
    Workflow.continueAsNew(input.continuedWith(carried));
  }

  /** Holds while paused; turns an accepted abort into {@link AbortRequested}. */
  void checkpoint() {
    Workflow.await(() -> !state.paused() || abortRequest != null || urgent());
    noticeInterruption();
    if (abortRequest != null) {
      throw new AbortRequested();
    }
  }

  boolean abortRequested() {
    return abortRequest != null;
  }

  String abortDescription() {
    return abortRequest == null ? null : abortRequest.describe();
  }

  // Endings.

  /**
   * Completes only once every Update handler has finished: a handler still recording its Events (a force-drain whose
   * pass already emptied the node) would otherwise fail with "the Workflow completed before the Update completed".
   */
  private ReplacementResult afterHandlers(ReplacementResult result) {
    Workflow.await(Workflow::isEveryHandlerFinished);
    return result;
  }

  private ReplacementResult rollBackAbort() {
    enter(ROLLING_BACK);
    launch.cancel("replacement of " + command.nodeClaim() + " aborted: " + abortRequest.describe());
    boolean wasCordoned = state.cordoned();
    Workflow.newDetachedCancellationScope(this::undoNodeChanges).run();
    if (command.nodeName() != null && !abortedByOwner()) {
      nodes.markAborted(nodeRef());
    }
    String kept = state.replacement() == null
        ? (state.replacementName() == null ? "no replacement was launched" : "unused replacement " + state.replacementName() + " removed")
        : "initialized replacement " + state.replacementName() + " kept as capacity";
    String message = "replacement aborted: " + abortRequest.describe() + "; node untainted" + (wasCordoned ? " and uncordoned" : "")
        + ", " + kept;
    recordOnNodeAndClaim(EventReasons.WARNING, EventReasons.REPLACEMENT_ABORTED, message);
    enter(ABORTED);
    StructuredLog.info(log, "disruption aborted", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
        "reason", abortRequest.describe(), "replacement", state.replacementName(), "replacementKept", state.replacement() != null);
    ReplacementResult result = result(OUTCOME_ABORTED);
    return state.replacement() == null
        ? new ReplacementResult(result.nodeClaim(), result.outcome(), null, null, result.evictedPods())
        : result;
  }

  /**
   * Aborted by the rollout that started it ({@link ReplacementInput#owner}): the rollout's abort stops the rollout, it
   * is no operator's hold on this node, so the node is given back unmarked and the next rollout or round plans it. A
   * rollout's abort sent to a replacement no rollout owns counts as an operator's.
   */
  private boolean abortedByOwner() {
    return abortedByRollout && input.owner() != null;
  }

  /** A clear failure; before the point of no return the node is given back to the scheduler first. */
  private RuntimeException fail(TemporalFailure failure) {
    ReplacementPhase failedIn = state.phase();
    boolean canceled = CancellationScope.current().isCancelRequested();
    String undone;
    if (!state.pastPointOfNoReturn()) {
      enter(ROLLING_BACK);
      boolean wasCordoned = state.cordoned();
      try {
        Workflow.newDetachedCancellationScope(this::undoNodeChanges).run();
        undone = "; node untainted" + (wasCordoned ? " and uncordoned" : "") + ", left in service";
      } catch (TemporalFailure rollbackFailure) {
        undone = "; ROLLBACK FAILED (" + Failures.reason(rollbackFailure) + "), node may still be tainted";
      }
    } else {
      undone = "; the instance is past the point of no return: Retry runs its termination again";
    }
    if (canceled) {
      enter(FAILED);
    }
    boolean ownFailure = failure instanceof ApplicationFailure app && OWN_FAILURES.contains(app.getType());
    String message = ownFailure
        ? ((ApplicationFailure) failure).getOriginalMessage() + undone
        : "replacement of nodeclaim " + command.nodeClaim() + " failed while " + failedIn + ": "
            + Failures.reason(failure) + undone;
    if (canceled) {
      return new CanceledFailure(message);
    }
    String type = ownFailure ? ((ApplicationFailure) failure).getType() : FailureTypes.REPLACEMENT_FAILED;
    return ApplicationFailure.newNonRetryableFailureWithCause(message, type, failure);
  }

  /** Removes the taint and this workflow's cordon; what was undone is no longer this workflow's to undo. */
  private void undoNodeChanges() {
    if (state.tainted()) {
      nodes.untaintDisrupted(nodeRef());
    }
    if (state.cordoned()) {
      nodes.uncordon(nodeRef());
    }
    state = state.withNodeChanges(false, false);
  }

  // Shared helpers.

  void logDecision(dev.farrier.model.ReplacementPlan plan) {
    StructuredLog.info(log, DisruptionLogLine.of(command, plan == null ? null : plan.replacement()),
        "reason", command.reason(), "detail", command.detail(), "nodeclaim", command.nodeClaim(),
        "node", command.nodeName(), "instance", command.instanceId(), "nodepool", command.nodePool());
  }

  ReplacementState state() {
    return state;
  }

  void update(ReplacementState next) {
    state = next;
  }

  EventRecorder events() {
    return events;
  }

  private ReplacementResult result(String outcome) {
    return new ReplacementResult(command.nodeClaim(), outcome, state.replacementName(),
        state.replacement() == null ? null : state.replacement().nodeName(), state.evicted().size());
  }

  /** The search attributes that say which replacement this is, in one upsert. */
  private void upsertIdentity() {
    List<SearchAttributeUpdate<?>> identity = new ArrayList<>(List.of(
        FarrierSearchAttributes.CLUSTER.valueSet(cluster),
        FarrierSearchAttributes.NODE_POOL.valueSet(command.nodePool()),
        FarrierSearchAttributes.REASON.valueSet(command.reason()),
        FarrierSearchAttributes.PHASE.valueSet(state.phase().label()),
        FarrierSearchAttributes.NODE_CLAIM.valueSet(command.nodeClaim())));
    if (command.nodeName() != null) {
      identity.add(FarrierSearchAttributes.NODE.valueSet(command.nodeName()));
    }
    if (command.instanceId() != null) {
      identity.add(FarrierSearchAttributes.INSTANCE_ID.valueSet(command.instanceId()));
    }
    if (state.blocker() != null) {
      identity.add(FarrierSearchAttributes.BLOCKER.valueSet(state.blocker().summary()));
    }
    Workflow.upsertTypedSearchAttributes(identity.toArray(SearchAttributeUpdate<?>[]::new));
  }

  void enter(ReplacementPhase next) {
    state = state.withPhase(next);
    Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.PHASE.valueSet(next.label()));
  }

  /** Sets (or clears) what blocks the replacement; the search attribute changes only when the blocker's words do. */
  private void setBlocker(Blocker next) {
    Blocker previous = state.blocker();
    state = state.withBlocker(next);
    boolean changed = next == null ? previous != null : previous == null || !previous.summary().equals(next.summary());
    if (changed) {
      Workflow.upsertTypedSearchAttributes(next == null ? FarrierSearchAttributes.BLOCKER.valueUnset()
          : FarrierSearchAttributes.BLOCKER.valueSet(next.summary()));
    }
  }

  /** The same Event on the node (when there is one) and on its NodeClaim, recorded together. */
  private void recordOnNodeAndClaim(String type, String reason, String message) {
    events.each(type, reason, message, nodeAndClaim());
  }

  private List<EventRecorder.Target> nodeAndClaim() {
    return command.nodeName() == null
        ? List.of(new EventRecorder.Target(EventReasons.KIND_NODE_CLAIM, command.nodeClaim()))
        : List.of(new EventRecorder.Target(KIND_NODE, command.nodeName()),
            new EventRecorder.Target(EventReasons.KIND_NODE_CLAIM, command.nodeClaim()));
  }

  NodeRef nodeRef() {
    return new NodeRef(cluster, command.nodeName(), command.nodeClaim());
  }

  String nodeNameOrClaim() {
    return command.nodeName() != null ? command.nodeName() : command.nodeClaim();
  }
}
