package dev.farrier.workflows.replacement;

import static dev.farrier.workflows.EventReasons.KIND_NODE;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.LaunchSettings;
import dev.farrier.model.ReplacementPlan;
import dev.farrier.model.ReplacementResult;
import dev.farrier.workflows.ActivityStubs;
import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.EventRecorder;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.activities.NodeActivities;
import dev.farrier.workflows.activities.NodeClaimActivities;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.workflows.provisioning.LaunchedNode;
import io.temporal.common.SearchAttributeUpdate;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * One run of a replacement: what it was asked to do, the activities it calls, its {@link ReplacementState} and what
 * operators asked of it. The steps, the drain, the launch, the rollback and the operator actions all read and change
 * the replacement through this one object.
 *
 * <p>What a long drain carries into its next run is the state record alone, its shape unchanged. The rest kept here
 * never crosses a run: an accepted abort rolls back before a drain continues as new, a Retry is taken only while a
 * failed step waits, and an interruption is told once per run.
 */
final class ReplacementRun implements LaunchContext {
  /** The replacement's lines, whichever of its classes says them, are logged under the workflow's name. */
  static final Logger LOG = Workflow.getLogger(NodeReplacementWorkflowImpl.class);

  static final String OUTCOME_DONE = "Done";
  static final String OUTCOME_ABORTED = "Aborted";
  /** A consolidation found no longer valid when checked again: nothing was done. */
  static final String OUTCOME_INVALIDATED = "Invalidated";

  private ReplacementInput input;
  private DisruptionCommand command;
  private LaunchSettings launchSettings;
  private NodeActivities nodes;
  private NodeClaimActivities claims;
  private PlanningActivities planning;
  private EventRecorder events;
  /** Set before the workflow method runs: a signal may arrive in the first workflow task. */
  private ReplacementState state = ReplacementState.initial();
  private OperatorRequest abortRequest;
  /** The abort came as the {@code rolloutAborted} signal, the one a rollout sends the replacements it owns. */
  private boolean abortedByRollout;
  private boolean retryRequested;
  private boolean interruptionNoticed;

  /** Takes the workflow's input; returns whether this run continues a drain (its state carried from the last run). */
  boolean start(ReplacementInput input) {
    this.input = input;
    command = input.command();
    launchSettings = input.launchSettings() == null ? LaunchSettings.DEFAULTS : input.launchSettings();
    nodes = ActivityStubs.nodes();
    claims = ActivityStubs.nodeClaims(launchSettings);
    planning = ActivityStubs.planning();
    boolean resumed = input.state() != null;
    if (resumed) {
      state = input.state();
    }
    events = new EventRecorder(nodes, input.cluster());
    if (state.interruption() == null && input.interruption() != null) {
      state = state.withInterruption(input.interruption());
    }
    if (!resumed && forceful()) {
      // Karpenter's deletion of the expired NodeClaim starts its terminationGracePeriod; this is that moment.
      state = state.withGraceEndsAt(DrainPolicy.graceEndsAt(command.terminationGracePeriodSeconds(), Workflow.currentTimeMillis()));
    }
    return resumed;
  }

  ReplacementLaunch newLaunch() {
    return new ReplacementLaunch(this, planning, cluster(), command, launchSettings);
  }

  ReplacementInput input() {
    return input;
  }

  /** Null until the workflow method runs (a signal or query may come first). */
  DisruptionCommand command() {
    return command;
  }

  String cluster() {
    return input.cluster();
  }

  NodeActivities nodes() {
    return nodes;
  }

  NodeClaimActivities claims() {
    return claims;
  }

  PlanningActivities planning() {
    return planning;
  }

  EventRecorder events() {
    return events;
  }

  ReplacementState state() {
    return state;
  }

  void update(ReplacementState next) {
    state = next;
  }

  // Phases and the blocker, as the search attributes show them.

  /** Honours a pause or an abort, then enters {@code next}: how a step a person may hold begins. */
  void begin(ReplacementPhase next) {
    checkpoint();
    enter(next);
  }

  void enter(ReplacementPhase next) {
    state = state.withPhase(next);
    Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.PHASE.valueSet(next.label()));
  }

  /** Sets (or clears) what blocks the replacement; the search attribute changes only when the blocker's words do. */
  void setBlocker(Blocker next) {
    Blocker previous = state.blocker();
    state = state.withBlocker(next);
    boolean changed = next == null ? previous != null : previous == null || !previous.summary().equals(next.summary());
    if (changed) {
      Workflow.upsertTypedSearchAttributes(next == null ? FarrierSearchAttributes.BLOCKER.valueUnset()
          : FarrierSearchAttributes.BLOCKER.valueSet(next.summary()));
    }
  }

  /** The search attributes that say which replacement this is, in one upsert. */
  void upsertIdentity() {
    List<SearchAttributeUpdate<?>> identity = new ArrayList<>(List.of(
        FarrierSearchAttributes.CLUSTER.valueSet(cluster()),
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

  // What operators asked (recorded by the Update handlers, acted on by the steps).

  /** Holds while paused; turns an accepted abort into {@link AbortRequested}. */
  @Override
  public void checkpoint() {
    Workflow.await(() -> !state.paused() || abortRequest != null || urgent());
    noticeInterruption();
    if (abortRequest != null) {
      throw new AbortRequested();
    }
  }

  OperatorRequest abortRequest() {
    return abortRequest;
  }

  void requestAbort(OperatorRequest request, boolean byRollout) {
    abortRequest = request;
    abortedByRollout = byRollout;
  }

  @Override
  public boolean abortRequested() {
    return abortRequest != null;
  }

  @Override
  public String abortDescription() {
    return abortRequest == null ? null : abortRequest.describe();
  }

  /**
   * Aborted by the rollout that started it ({@link ReplacementInput#owner}): the rollout's abort stops the rollout, it
   * is no operator's hold on this node, so the node is given back unmarked and the next rollout or round plans it. A
   * rollout's abort sent to a replacement no rollout owns counts as an operator's.
   */
  boolean abortedByOwner() {
    return abortedByRollout && input.owner() != null;
  }

  boolean retryRequested() {
    return retryRequested;
  }

  void requestRetry(boolean requested) {
    retryRequested = requested;
  }

  // Interruption and forceful expiry: the node goes away whatever happens.

  /** The node is being interrupted: it goes away within minutes whatever happens. */
  boolean urgent() {
    return state.interruption() != null;
  }

  /** Interrupted, and this run has not said so yet: a wait ends to tell it. */
  boolean interruptionUnnoticed() {
    return urgent() && !interruptionNoticed;
  }

  String reasonOfInterruption() {
    return state.interruption() == null ? null : state.interruption().reason();
  }

  @Override
  public boolean forceful() {
    return command.forceful();
  }

  @Override
  public boolean drainsNow() {
    return urgent() || forceful();
  }

  @Override
  public String goingAway() {
    return urgent() ? "interrupted" : command.reason();
  }

  /** Once per run: lift a pause, show the reason in the search attributes, and say so on the node. */
  @Override
  public void noticeInterruption() {
    if (!urgent() || interruptionNoticed) {
      return;
    }
    interruptionNoticed = true;
    state = state.withPaused(false);
    Interruption interruption = state.interruption();
    Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.REASON.valueSet(interruption.reason()));
    StructuredLog.info(LOG, "node interrupted, draining now", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
        "instance", command.instanceId(), "reason", interruption.reason(), "detail", interruption.detail(), "phase", state.phase());
    events.warning(KIND_NODE, nodeNameOrClaim(), EventReasons.INTERRUPTED, interruption.reason() + ": " + interruption.detail()
        + "; draining now" + (state.replacement() == null && state.replacementName() != null
            ? ", replacement " + state.replacementName() + " launching in parallel" : ""));
  }

  // The launch's view (LaunchContext).

  @Override
  public String replacementName() {
    return state.replacementName();
  }

  @Override
  public void replacement(String name, LaunchedNode launched) {
    state = state.withReplacement(name, launched);
  }

  @Override
  public void logDecision(ReplacementPlan plan) {
    StructuredLog.info(LOG, DisruptionLogLine.of(command, plan == null ? null : plan.replacement()),
        "reason", command.reason(), "detail", command.detail(), "nodeclaim", command.nodeClaim(),
        "node", command.nodeName(), "instance", command.instanceId(), "nodepool", command.nodePool());
  }

  @Override
  public void warnOnNode(String reason, String message) {
    events.warning(KIND_NODE, nodeNameOrClaim(), reason, message);
  }

  // The node, its claim and the result.

  boolean hasNode() {
    return command.nodeName() != null;
  }

  NodeRef nodeRef() {
    return new NodeRef(cluster(), command.nodeName(), command.nodeClaim());
  }

  String nodeNameOrClaim() {
    return command.nodeName() != null ? command.nodeName() : command.nodeClaim();
  }

  /** The same Event on the node (when there is one) and on its NodeClaim, recorded together. */
  void recordOnNodeAndClaim(String type, String reason, String message) {
    events.each(type, reason, message, nodeAndClaim());
  }

  List<EventRecorder.Target> nodeAndClaim() {
    return command.nodeName() == null
        ? List.of(new EventRecorder.Target(EventReasons.KIND_NODE_CLAIM, command.nodeClaim()))
        : List.of(new EventRecorder.Target(KIND_NODE, command.nodeName()),
            new EventRecorder.Target(EventReasons.KIND_NODE_CLAIM, command.nodeClaim()));
  }

  ReplacementResult result(String outcome) {
    return new ReplacementResult(command.nodeClaim(), outcome, state.replacementName(),
        state.replacement() == null ? null : state.replacement().nodeName(), state.evicted().size());
  }
}
