package dev.farrier.workflows.replacement;

import static dev.farrier.workflows.EventReasons.KIND_NODE;

import dev.farrier.workflows.ActivityStubs;
import dev.farrier.workflows.ChildWorkflowStarts;
import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.EventRecorder;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.Waits;
import dev.farrier.workflows.activities.DisruptionCommand;
import dev.farrier.workflows.activities.DrainRequest;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.NodeActivities;
import dev.farrier.workflows.activities.NodeClaimActivities;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.PlanReplacementRequest;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.workflows.activities.ReplacementPlan;
import dev.farrier.workflows.activities.TerminateInstanceRequest;
import dev.farrier.workflows.provisioning.LaunchSettings;
import dev.farrier.workflows.provisioning.LaunchedNode;
import dev.farrier.workflows.provisioning.NodeLaunchInput;
import dev.farrier.workflows.provisioning.NodeLaunchWorkflow;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * Replaces one node: Tainting, Launching, Cordoning, Draining, Terminating, Finalizing, Done.
 *
 * <p>Operators steer it with signals. {@code pause} holds it before its next step (and between drain passes);
 * {@code abort} is honoured until Terminating starts and rolls back what was done: the taint and (if this workflow
 * set it) the cordon are removed, a replacement whose launch had not completed is cancelled (its own saga terminates
 * the instance and deletes the claim), an initialized replacement is kept as ordinary capacity, and the node is
 * marked so the planner leaves it alone.
 *
 * <p>An interrupted node (input {@link ReplacementInput#interruption()} or signal {@code interrupted}) is going away
 * in minutes whatever happens: from then on the workflow does not wait for its replacement to initialize, it cordons
 * and drains at once (PodDisruptionBudgets still hold, passes without backoff) while the launch proceeds in parallel;
 * a replacement that cannot be planned or fails to launch no longer stops the drain, and a pause is lifted. The
 * change is gated by the version {@value #INTERRUPTION_CHANGE}, so replacements started by older code replay as they ran.
 */
public class NodeReplacementWorkflowImpl implements NodeReplacementWorkflow {
  private static final Logger log = Workflow.getLogger(NodeReplacementWorkflowImpl.class);

  static final String PENDING = "Pending";
  static final String TAINTING = "Tainting";
  static final String LAUNCHING = "Launching";
  static final String CORDONING = "Cordoning";
  static final String DRAINING = "Draining";
  static final String TERMINATING = "Terminating";
  static final String FINALIZING = "Finalizing";
  static final String DONE = "Done";
  static final String ROLLING_BACK = "RollingBack";
  static final String ABORTED = "Aborted";
  static final String FAILED = "Failed";

  /** Failures this workflow raises itself: their message and type are the workflow's result as they are. */
  private static final List<String> OWN_FAILURES =
      List.of(FailureTypes.REPLACEMENT_LAUNCH_FAILED, FailureTypes.NO_REPLACEMENT_POSSIBLE);

  /** About 11 history events a blocked pass: a few thousand events per run, far below Temporal's limits. */
  static final int MAX_DRAIN_PASSES_PER_RUN = 200;

  /** {@code Workflow.getVersion} change id of interruption handling (version 1). */
  static final String INTERRUPTION_CHANGE = "interruption-drains-now";

  static final String OUTCOME_DONE = "Done";
  static final String OUTCOME_ABORTED = "Aborted";

  /** Thrown inside the workflow method when an accepted abort is noticed; caught there, never leaves it. */
  private static final class AbortRequested extends RuntimeException {
    AbortRequested() {
      super(null, null, false, false);
    }
  }

  private DisruptionCommand command;
  private String phase = PENDING;
  private boolean paused;
  private String abortReason;
  private boolean pastPointOfNoReturn;
  private boolean tainted;
  private boolean cordoned;
  private String replacementName;
  private LaunchedNode replacement;
  private List<String> podsLeft = List.of();
  private final List<String> evicted = new ArrayList<>();
  private String blockedBy;
  private int interruptionVersion = Workflow.DEFAULT_VERSION;
  private Interruption interruption;
  private boolean interruptionNoticed;
  /** A replacement launch left running because the node was interrupted; collected after the drain. */
  private Promise<LaunchedNode> pendingLaunch;
  private CancellationScope pendingLaunchScope;

  private String cluster;
  private NodeActivities nodes;
  private NodeClaimActivities claims;
  private PlanningActivities planning;
  private EventRecorder events;

  @Override
  public ReplacementResult replace(ReplacementInput input) {
    cluster = input.cluster();
    command = input.command();
    LaunchSettings launchSettings = input.launchSettings() == null ? LaunchSettings.DEFAULTS : input.launchSettings();
    nodes = ActivityStubs.nodes();
    claims = ActivityStubs.nodeClaims(launchSettings);
    planning = ActivityStubs.planning();
    events = new EventRecorder(nodes, cluster);
    DrainResume resume = input.resume();
    if (resume != null) {
      restore(resume);
    }
    interruptionVersion = Workflow.getVersion(INTERRUPTION_CHANGE, Workflow.DEFAULT_VERSION, 1);
    if (interruption == null) {
      interruption = input.interruption() != null ? input.interruption() : resume == null ? null : resume.interruption();
    }
    Workflow.upsertTypedSearchAttributes(
        FarrierSearchAttributes.CLUSTER.valueSet(cluster),
        FarrierSearchAttributes.NODE_POOL.valueSet(command.nodePool()),
        FarrierSearchAttributes.REASON.valueSet(command.reason()),
        FarrierSearchAttributes.PHASE.valueSet(phase));
    if (command.nodeName() != null) {
      Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.NODE.valueSet(command.nodeName()));
    }
    if (command.instanceId() != null) {
      Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.INSTANCE_ID.valueSet(command.instanceId()));
    }

    try {
      if (resume == null) {
        checkpoint();
        enter(TAINTING);
        if (command.nodeName() != null) {
          tainted = true;
          nodes.taintDisrupted(nodeRef());
          events.normal(KIND_NODE, command.nodeName(), EventReasons.DISRUPTION_TAINTED,
              "tainted karpenter.sh/disrupted:NoSchedule (" + command.reason() + ")");
        }

        if ("replace".equals(command.method())) {
          checkpoint();
          launchReplacement(launchSettings);
        } else {
          logDecision(null);
        }

        if (command.nodeName() != null) {
          checkpoint();
          enter(CORDONING);
          // Only a cordon this workflow made is undone by a rollback.
          cordoned = Boolean.TRUE.equals(nodes.cordon(nodeRef()));
          events.normal(KIND_NODE, command.nodeName(), EventReasons.CORDONED, "cordoned for " + command.reason());
        }
      }
      if (command.nodeName() != null) {
        drain(input);
      }

      checkpoint();
      if (pendingLaunch != null && !pendingLaunch.isCompleted()) {
        StructuredLog.info(log, "interrupted node drained, replacement still launching", "nodeclaim", command.nodeClaim(),
            "node", command.nodeName(), "replacement", replacementName);
      }
      // From here the node is going away: an abort can no longer give it back.
      pastPointOfNoReturn = true;
      enter(TERMINATING);
      if (command.instanceId() != null) {
        var terminate = new TerminateInstanceRequest(cluster, command.nodeClaim(), command.instanceId());
        claims.terminateInstance(terminate);
        claims.awaitInstanceTerminated(terminate);
        events.normal(KIND_NODE, nodeNameOrClaim(), EventReasons.TERMINATED,
            "terminated instance " + command.instanceId());
      }

      enter(FINALIZING);
      if (command.nodeName() != null) {
        claims.deleteNode(nodeRef());
      }
      claims.deleteNodeClaim(new NodeClaimRef(cluster, command.nodeClaim()));
      collectPendingLaunch();
      enter(DONE);
      StructuredLog.info(log, "disrupted nodeclaim", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
          "instance", command.instanceId(), "reason", command.reason(), "replacement", replacementName,
          "evicted", evicted.size());
      return result(OUTCOME_DONE);
    } catch (AbortRequested abort) {
      return rollBackAbort();
    } catch (TemporalFailure failure) {
      throw fail(failure);
    }
  }

  @Override
  public void pause() {
    paused = true;
  }

  @Override
  public void resume() {
    paused = false;
  }

  @Override
  public void abort(String reason) {
    if (pastPointOfNoReturn || abortReason != null) {
      StructuredLog.info(log, "abort ignored", "nodeclaim", command == null ? null : command.nodeClaim(),
          "phase", phase, "reason", reason);
      return;
    }
    abortReason = reason == null || reason.isBlank() ? "no reason given" : reason;
  }

  @Override
  public void interrupted(Interruption notice) {
    if (pastPointOfNoReturn || interruption != null || notice == null) {
      StructuredLog.info(log, "interruption signal ignored", "nodeclaim", command == null ? null : command.nodeClaim(),
          "phase", phase, "reason", notice == null ? null : notice.reason());
      return;
    }
    interruption = notice;
  }

  /** Interrupted and running code that knows what that means (not a replay of a history from before it). */
  private boolean urgent() {
    return interruptionVersion >= 1 && interruption != null;
  }

  /** Once per run: lift a pause, show the reason in the search attributes, and say so on the node. */
  private void noticeInterruption() {
    if (!urgent() || interruptionNoticed) {
      return;
    }
    interruptionNoticed = true;
    paused = false;
    Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.REASON.valueSet(interruption.reason()));
    StructuredLog.info(log, "node interrupted, draining now", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
        "instance", command.instanceId(), "reason", interruption.reason(), "detail", interruption.detail(), "phase", phase);
    events.warning(KIND_NODE, nodeNameOrClaim(), EventReasons.INTERRUPTED, interruption.reason() + ": " + interruption.detail()
        + "; draining now" + (replacement == null && replacementName != null ? ", replacement " + replacementName + " launching in parallel" : ""));
  }

  @Override
  public ReplacementProgress progress() {
    return new ReplacementProgress(
        command == null ? null : command.nodeClaim(),
        command == null ? null : command.nodeName(),
        phase, replacementName, List.copyOf(podsLeft), List.copyOf(evicted), blockedBy, paused);
  }

  /** Plans the replacement, launches it as a child and waits until it is initialized (or an abort arrives). */
  private void launchReplacement(LaunchSettings launchSettings) {
    enter(LAUNCHING);
    String proposedName = command.nodePool() + "-" + Workflow.randomUUID().toString().substring(0, 8);
    ReplacementPlan plan = planning.planReplacement(
        new PlanReplacementRequest(cluster, command.nodeClaim(), command.nodeName(), proposedName));
    logDecision(plan);
    if (plan.replacement() == null) {
      if (plan.reschedulablePods() > 0 && urgent()) {
        // The node goes away anyway: its pods are better off pending (provisioning takes them) than killed.
        StructuredLog.warn(log, "no replacement for an interrupted node, draining anyway", "nodeclaim", command.nodeClaim(),
            "node", command.nodeName(), "pods", plan.reschedulablePods(), "why", plan.description());
        return;
      }
      if (plan.reschedulablePods() > 0) {
        // Draining now would evict pods with nowhere to go: the replacement-first guarantee forbids it.
        throw ApplicationFailure.newNonRetryableFailure("no replacement can be planned for the " + plan.reschedulablePods()
            + " pod(s) on node " + command.nodeName() + ": " + plan.description(), FailureTypes.NO_REPLACEMENT_POSSIBLE);
      }
      return;
    }
    replacementName = plan.replacement().name();
    @SuppressWarnings("unchecked")
    Promise<LaunchedNode>[] launch = new Promise[1];
    CancellationScope launchScope = Workflow.newCancellationScope(() -> {
      NodeLaunchWorkflow child = Workflow.newChildWorkflowStub(NodeLaunchWorkflow.class,
          ChildWorkflowStarts.launch(replacementName));
      launch[0] = Async.function(child::launch, new NodeLaunchInput(cluster, plan.replacement(), launchSettings));
    });
    launchScope.run();
    Workflow.await(() -> launch[0].isCompleted() || abortReason != null || urgent());
    if (!launch[0].isCompleted() && abortReason == null) {
      // Interrupted: drain now; the launch goes on and is collected after the drain (or cancelled by an abort).
      pendingLaunch = launch[0];
      pendingLaunchScope = launchScope;
      noticeInterruption();
      return;
    }
    if (!launch[0].isCompleted()) {
      // The launch rolls itself back when cancelled; waiting for it means nothing is left half launched.
      launchScope.cancel("replacement of " + command.nodeClaim() + " aborted: " + abortReason);
    }
    try {
      replacement = launch[0].get();
    } catch (ChildWorkflowFailure failure) {
      if (abortReason != null) {
        throw new AbortRequested();
      }
      if (urgent()) {
        replacementLaunchFailedWhileInterrupted(failure);
        return;
      }
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "replacement nodeclaim " + replacementName + " for node " + command.nodeName() + " failed to launch: "
              + Failures.reason(failure), FailureTypes.REPLACEMENT_LAUNCH_FAILED, failure);
    }
    StructuredLog.info(log, "replacement initialized", "nodeclaim", command.nodeClaim(),
        "replacement", replacementName, "node", replacement.nodeName());
    if (abortReason != null) {
      throw new AbortRequested();
    }
  }

  /** Collects a launch left running by an interruption; its failure no longer matters to the node going away. */
  private void collectPendingLaunch() {
    if (pendingLaunch == null) {
      return;
    }
    try {
      replacement = pendingLaunch.get();
      StructuredLog.info(log, "replacement initialized", "nodeclaim", command.nodeClaim(),
          "replacement", replacementName, "node", replacement.nodeName());
    } catch (ChildWorkflowFailure failure) {
      replacementLaunchFailedWhileInterrupted(failure);
    }
    pendingLaunch = null;
  }

  private void replacementLaunchFailedWhileInterrupted(ChildWorkflowFailure failure) {
    StructuredLog.warn(log, "replacement of an interrupted node failed to launch", "nodeclaim", command.nodeClaim(),
        "node", command.nodeName(), "replacement", replacementName, "error", Failures.reason(failure));
    events.warning(KIND_NODE, nodeNameOrClaim(), EventReasons.LAUNCH_FAILED, "replacement " + replacementName
        + " failed to launch: " + Failures.reason(failure) + "; the interrupted node is drained anyway");
    replacement = null;
  }

  /**
   * Continues as new with the drain's state, so a drain blocked for days keeps a bounded history. A signal that
   * arrived meanwhile is handled first: an abort rolls back here rather than being carried.
   */
  private void continueDraining(ReplacementInput input, long graceEndsAt, String lastBlocker) {
    Workflow.await(Workflow::isEveryHandlerFinished);
    checkpoint();
    collectPendingLaunch();
    StructuredLog.info(log, "drain continues as new", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
        "podsLeft", podsLeft.size(), "blockedBy", blockedBy);
    Workflow.continueAsNew(new ReplacementInput(input.cluster(), command, input.launchSettings(), input.drainPollSeconds(),
        input.drainPollMaxSeconds(), new DrainResume(replacementName, replacement, tainted, cordoned, paused, graceEndsAt,
            evicted, lastBlocker, urgent() ? interruption : null)));
  }

  private void restore(DrainResume resume) {
    phase = DRAINING;
    replacementName = resume.replacementName();
    replacement = resume.replacement();
    tainted = resume.tainted();
    cordoned = resume.cordoned();
    paused = resume.paused();
    evicted.addAll(resume.evicted());
  }

  /** Drain passes until no pod is left, backing off while nothing moves; bypasses PDBs once the grace period ends. */
  private void drain(ReplacementInput input) {
    enter(DRAINING);
    long firstWait = Math.max(1, input.drainPollSeconds());
    long maxWait = Math.max(firstWait, input.drainPollMaxSeconds());
    Long gracePeriod = command.terminationGracePeriodSeconds();
    long graceEndsAt = input.resume() != null ? input.resume().graceEndsAtMillis()
        : gracePeriod == null ? Long.MAX_VALUE : Workflow.currentTimeMillis() + gracePeriod * 1000;
    long waitSeconds = firstWait;
    String lastBlocker = input.resume() == null ? null : input.resume().lastBlocker();
    for (int pass = 1; ; pass++) {
      if (pass > MAX_DRAIN_PASSES_PER_RUN || Workflow.getInfo().isContinueAsNewSuggested()) {
        continueDraining(input, graceEndsAt, lastBlocker);
      }
      checkpoint();
      boolean bypassPdb = Workflow.currentTimeMillis() >= graceEndsAt;
      DrainStatus status = nodes.drainStep(new DrainRequest(cluster, command.nodeName(), command.nodeClaim(), bypassPdb));
      evicted.addAll(status.evicted());
      podsLeft = status.remaining();
      blockedBy = status.drained() ? null : blockerOf(status);
      if (!status.evicted().isEmpty()) {
        events.normalEach(KIND_NODE, command.nodeName(), EventReasons.EVICTED,
            status.evicted().stream().map(pod -> "evicted " + pod).toList());
      }
      if (blockedBy != null && !blockedBy.equals(lastBlocker)) {
        events.warning(KIND_NODE, command.nodeName(), EventReasons.DRAIN_BLOCKED,
            "drain blocked by " + blockedBy + "; " + podsLeft.size() + " pod(s) left");
        StructuredLog.info(log, "drain blocked", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
            "blockedBy", blockedBy, "podsLeft", podsLeft.size());
      }
      lastBlocker = blockedBy;
      if (status.drained()) {
        return;
      }
      if (!status.evicted().isEmpty() || urgent()) {
        waitSeconds = firstWait; // pods are moving, or the node is going away: look again soon
      }
      long waitMillis = Math.min(waitSeconds * 1000, graceEndsAt - Workflow.currentTimeMillis());
      if (waitMillis > 0) {
        Waits.awaitOrTimeout(Duration.ofMillis(waitMillis), () -> abortReason != null || (urgent() && !interruptionNoticed));
      }
      waitSeconds = Math.min(waitSeconds * 2, maxWait);
    }
  }

  private static String blockerOf(DrainStatus status) {
    if (!status.blockingPdbs().isEmpty()) {
      return "PodDisruptionBudget " + String.join(", ", status.blockingPdbs());
    }
    if (!status.doNotDisrupt().isEmpty()) {
      return "karpenter.sh/do-not-disrupt on " + String.join(", ", status.doNotDisrupt());
    }
    if (!status.failures().isEmpty()) {
      return "eviction failing: " + String.join("; ", status.failures());
    }
    return null;
  }

  /** Holds while paused; turns an accepted abort into {@link AbortRequested}. */
  private void checkpoint() {
    Workflow.await(() -> !paused || abortReason != null || urgent());
    noticeInterruption();
    if (abortReason != null) {
      throw new AbortRequested();
    }
  }

  private ReplacementResult rollBackAbort() {
    enter(ROLLING_BACK);
    if (pendingLaunch != null) {
      if (!pendingLaunch.isCompleted()) {
        pendingLaunchScope.cancel("replacement of " + command.nodeClaim() + " aborted: " + abortReason);
      }
      try {
        replacement = pendingLaunch.get();
      } catch (ChildWorkflowFailure cancelled) {
        replacement = null; // the launch rolled itself back
      }
      pendingLaunch = null;
    }
    Workflow.newDetachedCancellationScope(this::undoNodeChanges).run();
    if (command.nodeName() != null) {
      nodes.markAborted(nodeRef());
    }
    String kept = replacement == null
        ? (replacementName == null ? "no replacement was launched" : "unused replacement " + replacementName + " removed")
        : "initialized replacement " + replacementName + " kept as capacity";
    String message = "replacement aborted: " + abortReason + "; node untainted" + (cordoned ? " and uncordoned" : "")
        + ", " + kept;
    events.warning(KIND_NODE, nodeNameOrClaim(), EventReasons.REPLACEMENT_ABORTED, message);
    enter(ABORTED);
    StructuredLog.info(log, "disruption aborted", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
        "reason", abortReason, "replacement", replacementName, "replacementKept", replacement != null);
    ReplacementResult result = result(OUTCOME_ABORTED);
    return replacement == null
        ? new ReplacementResult(result.nodeClaim(), result.outcome(), null, null, result.evictedPods())
        : result;
  }

  /** Fails with a clear message; before the point of no return the node is given back to the scheduler first. */
  private RuntimeException fail(TemporalFailure failure) {
    String failedIn = phase;
    boolean canceled = CancellationScope.current().isCancelRequested();
    String undone = "";
    if (!pastPointOfNoReturn) {
      enter(ROLLING_BACK);
      try {
        Workflow.newDetachedCancellationScope(this::undoNodeChanges).run();
        undone = "; node untainted" + (cordoned ? " and uncordoned" : "") + ", left in service";
      } catch (TemporalFailure rollbackFailure) {
        undone = "; ROLLBACK FAILED (" + Failures.reason(rollbackFailure) + "), node may still be tainted";
      }
    } else {
      undone = "; the instance is past the point of no return: retry by resetting this workflow";
    }
    enter(FAILED);
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

  private void undoNodeChanges() {
    if (tainted) {
      nodes.untaintDisrupted(nodeRef());
    }
    if (cordoned) {
      nodes.uncordon(nodeRef());
    }
  }

  private void logDecision(ReplacementPlan plan) {
    StructuredLog.info(log, DisruptionLogLine.of(command, plan == null ? null : plan.replacement()),
        "reason", command.reason(), "detail", command.detail(), "nodeclaim", command.nodeClaim(),
        "node", command.nodeName(), "instance", command.instanceId(), "nodepool", command.nodePool());
  }

  private ReplacementResult result(String outcome) {
    return new ReplacementResult(command.nodeClaim(), outcome, replacementName,
        replacement == null ? null : replacement.nodeName(), evicted.size());
  }

  private void enter(String next) {
    phase = next;
    Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.PHASE.valueSet(next));
  }

  private NodeRef nodeRef() {
    return new NodeRef(cluster, command.nodeName(), command.nodeClaim());
  }

  private String nodeNameOrClaim() {
    return command.nodeName() != null ? command.nodeName() : command.nodeClaim();
  }
}
