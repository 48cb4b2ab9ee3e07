package dev.farrier.workflows.upgrade;

import dev.farrier.model.AmiTerm;
import dev.farrier.model.CandidateDecision;
import dev.farrier.model.RolloutBatch;
import dev.farrier.model.RolloutScope;
import dev.farrier.workflows.ActivityStubs;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.Waits;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.workflows.activities.ReleaseRolloutRequest;
import dev.farrier.workflows.activities.RolloutActivities;
import dev.farrier.workflows.activities.RolloutClaim;
import dev.farrier.workflows.activities.SwitchImagesRequest;
import io.temporal.common.SearchAttributeUpdate;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;

/**
 * What every step of one run of a rollout works on: its input, its one {@link UpgradeState}, the activities, and how
 * it shows where it is (the FarrierPhase and FarrierBlocker search attributes). The steps and the operator's Updates
 * change {@link #state} only by replacing it whole, never from a copy kept across a wait (where an Update may land).
 */
final class Rollout {
  static final Logger log = Workflow.getLogger(NodePoolUpgradeWorkflowImpl.class);

  /** How long to wait before planning again when no node can be replaced now (a budget, do-not-disrupt). */
  static final Duration REPLAN_INTERVAL = Duration.ofSeconds(30);
  private static final String IN_FLIGHT_ONLY = "waiting for replacements in flight";

  final String workflowId = Workflow.getInfo().getWorkflowId();
  final RolloutActivities activities = ActivityStubs.rollout();
  final PlanningActivities planning = ActivityStubs.planning();
  /** Null until the workflow method runs (a query may come first). */
  UpgradeInput input;
  UpgradeState state = UpgradeState.initial();

  /** Refuses an input no rollout could do (a start from the Temporal UI skips the CLI's check), then names the run. */
  void begin(UpgradeInput in) {
    input = in;
    String problem = in.problem();
    if (problem != null) {
      throw ApplicationFailure.newNonRetryableFailure(problem, FailureTypes.INVALID_UPGRADE);
    }
    upsertIdentity();
    if (in.state() != null) {
      state = in.state().withThisRun(state.thisRun());
    }
  }

  RolloutClaim claim() {
    return state.claim();
  }

  UpgradeState.ThisRun thisRun() {
    return state.thisRun();
  }

  void updateThisRun(UnaryOperator<UpgradeState.ThisRun> change) {
    state = state.withThisRun(change.apply(state.thisRun()));
  }

  boolean abortRequested() {
    return state.thisRun().abort() != null;
  }

  void checkAbort() {
    if (abortRequested()) {
      throw aborted();
    }
  }

  RolloutStopped aborted() {
    return new RolloutStopped("aborted: " + state.thisRun().abort().describe(), true);
  }

  RolloutStopped tooManyFailures(List<String> failed) {
    return new RolloutStopped(failed.isEmpty() ? state.failures() + " replacement(s) failed"
        : "replacement of " + String.join("; ", failed) + (input.maxFailures() > 0
            ? " (" + state.failures() + " failures, more than --max-failures " + input.maxFailures() + ")" : ""), false);
  }

  /** Waits {@link #REPLAN_INTERVAL} before the next plan; an abort ends the wait. */
  void awaitNextPlan() {
    Waits.awaitOrTimeout(REPLAN_INTERVAL, this::abortRequested);
  }

  /**
   * The planner's answer for up to {@code max} more replacements, {@code inFlight} counted as being replaced; an answer
   * with {@link RolloutBatch#frozen} set while a change freeze holds the rollout. One activity ({@link
   * RolloutScope#inOneStep}) answers the freeze, the plan and what runs on the old nodes: as three round trips through the
   * workflow, a freed slot of a 500-node rolling roll waited 5.7 s (median) for its next replacement.
   */
  RolloutBatch planNext(int max, List<String> inFlight) {
    return planning.planRollout(new PlanDisruptionRequest(input.cluster(),
        new RolloutScope(workflowId, claim().nodePools(), max, List.of(), inFlight, true)));
  }

  /**
   * Why the remaining nodes wait, from the planner's answer (which leaves the rollout's own replacements in flight out):
   * the first reason, and how many wait; that only replacements in flight remain when none wait.
   */
  static String heldBy(RolloutBatch batch) {
    return heldBy(batch, IN_FLIGHT_ONLY);
  }

  /** As {@link #heldBy(RolloutBatch)}, {@code whenNone} when none wait. */
  static String heldBy(RolloutBatch batch, String whenNone) {
    if (batch.held().isEmpty()) {
      return whenNone;
    }
    CandidateDecision first = batch.held().getFirst();
    int count = batch.heldCount();
    return first.nodeClaim() + ": " + first.reason() + (count > 1 ? " (and " + (count - 1) + " more)" : "");
  }

  /** Switches the EC2NodeClass's terms and waits until its status resolves exactly {@code images}. */
  void switchImages(List<AmiTerm> terms, String amiFamily, boolean forward, List<String> images) {
    var request = new SwitchImagesRequest(input.cluster(), workflowId, claim().nodeClass(), terms, amiFamily, forward, images);
    activities.switchImages(request);
    activities.awaitImages(request);
  }

  /** Gives the NodePools back; the EC2NodeClass's rollout record too, unless a failed rollback left it for a person. */
  void release(boolean nodeClassToo) {
    activities.release(new ReleaseRolloutRequest(input.cluster(), workflowId, claim().nodePools(),
        nodeClassToo ? claim().nodeClass() : null));
  }

  UpgradeResult result(String outcome, String cause, int rolledBack) {
    RolloutClaim c = claim();
    return new UpgradeResult(outcome, cause, c.nodePools(), c.nodeClass(), input.targetText(), c.targetImages(),
        state.batch(), state.replaced(), state.total(), state.failures(), rolledBack);
  }

  // Visibility.

  void enter(UpgradePhase phase) {
    state = state.withPhase(phase);
    Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.PHASE.valueSet(phase.label()));
  }

  void setBlocker(String blocker) {
    boolean changed = blocker == null ? state.blocker() != null : !blocker.equals(state.blocker());
    state = state.withBlocker(blocker, Workflow.currentTimeMillis());
    if (changed) {
      Workflow.upsertTypedSearchAttributes(blocker == null ? FarrierSearchAttributes.BLOCKER.valueUnset()
          : FarrierSearchAttributes.BLOCKER.valueSet(FarrierSearchAttributes.keyword(blocker)));
      if (blocker != null) {
        StructuredLog.info(log, "rollout held", "rollout", workflowId, "by", blocker);
      }
    }
  }

  void upsertIdentity() {
    List<String> pools = state.claim() != null ? state.claim().nodePools() : input.nodePools();
    List<SearchAttributeUpdate<?>> updates = new ArrayList<>(List.of(
        FarrierSearchAttributes.CLUSTER.valueSet(input.cluster()),
        FarrierSearchAttributes.REASON.valueSet(FarrierSearchAttributes.keyword("upgrade to " + input.targetText()))));
    if (!pools.isEmpty()) {
      updates.add(FarrierSearchAttributes.NODE_POOL.valueSet(FarrierSearchAttributes.keyword(String.join("+", pools))));
    }
    Workflow.upsertTypedSearchAttributes(updates.toArray(SearchAttributeUpdate[]::new));
  }
}
