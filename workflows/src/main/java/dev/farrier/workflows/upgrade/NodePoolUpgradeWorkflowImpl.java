package dev.farrier.workflows.upgrade;

import dev.farrier.model.AmiTerm;
import static dev.farrier.workflows.Refusals.refuseIf;
import static dev.farrier.workflows.upgrade.UpgradePhase.ABORTED;
import static dev.farrier.workflows.upgrade.UpgradePhase.AWAITING_APPROVAL;
import static dev.farrier.workflows.upgrade.UpgradePhase.BATCH;
import static dev.farrier.workflows.upgrade.UpgradePhase.CANARY;
import static dev.farrier.workflows.upgrade.UpgradePhase.FAILED;
import static dev.farrier.workflows.upgrade.UpgradePhase.GATE;
import static dev.farrier.workflows.upgrade.UpgradePhase.ROLLING_BACK;
import static dev.farrier.workflows.upgrade.UpgradePhase.SOAKING;
import static dev.farrier.workflows.upgrade.UpgradePhase.SUCCEEDED;
import static dev.farrier.workflows.upgrade.UpgradePhase.SWITCHING;
import static dev.farrier.workflows.upgrade.UpgradePhase.WAITING;

import dev.farrier.workflows.ActivityStubs;
import dev.farrier.workflows.ChildWorkflowStarts;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.Waits;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.CandidateDecision;
import dev.farrier.workflows.activities.ClaimRolloutRequest;
import dev.farrier.workflows.activities.ClosedReplacement;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.workflows.activities.FollowRequest;
import dev.farrier.workflows.activities.HealthObservation;
import dev.farrier.workflows.activities.HealthRequest;
import dev.farrier.workflows.activities.OffTargetNode;
import dev.farrier.workflows.activities.TargetCheckRequest;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.workflows.activities.ReleaseRolloutRequest;
import dev.farrier.workflows.activities.RolloutActivities;
import dev.farrier.model.RolloutBatch;
import dev.farrier.workflows.activities.RolloutClaim;
import dev.farrier.model.RolloutScope;
import dev.farrier.workflows.activities.SwitchImagesRequest;
import dev.farrier.model.WorkloadRef;
import dev.farrier.model.WellKnown;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.OperatorRequest;
import dev.farrier.workflows.replacement.ReplacementInput;
import dev.farrier.model.ReplacementResult;
import io.temporal.common.SearchAttributeUpdate;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.CompletablePromise;
import io.temporal.workflow.Promise;
import io.temporal.workflow.SignalExternalWorkflowException;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;

/**
 * The rollout's script ({@link #upgrade}): claim the NodePools, switch the images, roll forward batch by batch with a
 * gate after each, and on any stop roll back. Everything it knows is one {@link UpgradeState}; the gate's decision is
 * {@link HealthGate}'s, the batches' the disruption planner's ({@code planRollout}).
 */
public class NodePoolUpgradeWorkflowImpl implements NodePoolUpgradeWorkflow {
  private static final Logger log = Workflow.getLogger(NodePoolUpgradeWorkflowImpl.class);

  /** How long to wait before planning again when no node can be replaced now (a budget, do-not-disrupt). */
  static final Duration REPLAN_INTERVAL = Duration.ofSeconds(30);
  /** How often the gate looks at the new nodes and the moved pods. */
  static final Duration GATE_INTERVAL = Duration.ofSeconds(10);
  /** Rollback replacements that may fail before the rollback gives up (and says so) rather than retrying forever. */
  static final int ROLLBACK_ATTEMPTS = 3;
  /** How many times the end is checked against the cluster before a fleet still off target fails the rollout. */
  static final int TARGET_CHECKS = 3;
  /** With {@code --rolling}: the replacements one run starts, at most, before it continues as new with its slots. */
  public static final int MAX_STARTS_PER_RUN = 100;
  /** How long one {@link RolloutActivities#awaitClosed} waits for a carried replacement to close. */
  static final Duration FOLLOW_WAIT = Duration.ofSeconds(30);
  /** The failure type a carried replacement's failure is given again in the run that took it over. */
  static final String CARRIED_FAILURE = "CarriedReplacementFailed";
  private static final String IN_FLIGHT_ONLY = "waiting for replacements in flight";

  /** Thrown inside the workflow when the rollout must stop; caught by {@link #upgrade}, never leaves it. */
  static final class RolloutStopped extends RuntimeException {
    final boolean aborted;

    RolloutStopped(String cause, boolean aborted) {
      super(cause, null, false, false);
      this.aborted = aborted;
    }
  }

  private UpgradeInput input;
  private UpgradeState state = UpgradeState.initial();
  private String workflowId;
  private int remaining;
  private OperatorRequest abortRequest;
  private OperatorRequest approval;
  /** With {@code --rolling}: why the rollout stops, once it does, while the replacements in flight finish; null before. */
  private RolloutStopped stopping;
  /** With {@code --rolling}: the abort was passed on to the replacements in flight. */
  private boolean abortPassedOn;
  private RolloutActivities rollout;
  private PlanningActivities planning;
  /** With {@code --rolling}: the replacements this run has started (see {@link #MAX_STARTS_PER_RUN}). */
  private int startedThisRun;

  @Override
  public UpgradeResult upgrade(UpgradeInput in) {
    input = in;
    workflowId = Workflow.getInfo().getWorkflowId();
    rollout = ActivityStubs.rollout();
    planning = ActivityStubs.planning();
    String problem = in.problem();
    if (problem != null) {
      throw ApplicationFailure.newNonRetryableFailure(problem, FailureTypes.INVALID_UPGRADE);
    }
    upsertIdentity();
    if (in.state() != null) {
      state = in.state();
    } else {
      enter(UpgradePhase.CLAIMING);
      state = state.withClaim(rollout.claim(new ClaimRolloutRequest(in.cluster(), workflowId, in.nodePools(), in.nodeClass(),
          in.target() == null ? List.of() : in.target().terms(), in.kubernetesVersion())));
      StructuredLog.info(log, "rollout started", "rollout", workflowId, "nodepools", claim().nodePools(),
          "nodeclass", claim().nodeClass(), "from", claim().previousImages(), "to", claim().targetImages());
      upsertIdentity();
    }
    try {
      if (in.state() == null && !claim().alreadyOnTarget()) {
        enter(SWITCHING);
        switchImages(claim().targetTerms(), claim().targetAmiFamily(), true, claim().targetImages());
      }
      rollForward();
      rollUntilOnTarget();
      enter(SUCCEEDED);
      release(true);
      StructuredLog.info(log, "rollout succeeded", "rollout", workflowId, "replaced", state.replaced(), "batches", state.batch());
      return result(UpgradeResult.SUCCEEDED, null, 0);
    } catch (RolloutStopped stop) {
      return stopped(stop.getMessage(), stop.aborted);
    } catch (ActivityFailure failure) {
      // A step that failed past its retries (the status loop never resolved the images, the API server is gone).
      return stopped("a step failed: " + Failures.reason(failure), false);
    }
  }

  private UpgradeResult stopped(String cause, boolean aborted) {
    state = state.withCause(cause);
    StructuredLog.warn(log, "rollout stopped, rolling back", "rollout", workflowId, "cause", cause);
    int rolledBack = 0;
    boolean classRestored = true;
    try {
      rolledBack = rollBack();
    } catch (ActivityFailure failure) {
      classRestored = false;
      // The NodePools are still given back: a NodePool left owned by an ended rollout would hold its drift for ever.
      state = state.withCause(state.cause() + "; the rollback failed (" + Failures.reason(failure) + "): check EC2NodeClass "
          + claim().nodeClass() + " (its previous terms are in " + WellKnown.PREVIOUS_AMI_TERMS_ANNOTATION + ")");
      StructuredLog.warn(log, "rollout rollback failed", "rollout", workflowId, "error", Failures.reason(failure));
    }
    enter(aborted ? ABORTED : FAILED);
    release(classRestored);
    return result(aborted ? UpgradeResult.ABORTED : UpgradeResult.FAILED, state.cause(), rolledBack);
  }

  /** Batches until no drifted node of the NodePools remains: the canary first, then {@code batchSize} at a time. */
  private void rollForward() {
    BatchSize size = BatchSize.parse(input.batchSize());
    while (true) {
      if (input.rolling() && state.batch() > 0) {
        rollOn(size);
        return;
      }
      checkAbort();
      boolean canary = state.batch() == 0;
      int max = canary ? input.canary() : size.of(Math.max(state.total(), 1));
      RolloutBatch batch = planNext(max, List.of());
      if (batch.frozen() != null) {
        // A change freeze holds the rollout where it is: no batch starts until it is lifted (or the rollout aborted).
        enter(WAITING);
        setBlocker(batch.frozen());
        Waits.awaitOrTimeout(REPLAN_INTERVAL, () -> abortRequest != null);
        continue;
      }
      remaining = batch.remaining();
      if (canary && state.total() == 0) {
        state = state.withTotal(batch.remaining());
      }
      if (batch.commands().isEmpty()) {
        if (batch.remaining() == 0) {
          setBlocker(null);
          return;
        }
        enter(WAITING);
        setBlocker(heldBy(batch, IN_FLIGHT_ONLY));
        Waits.awaitOrTimeout(REPLAN_INTERVAL, () -> abortRequest != null);
        continue;
      }
      setBlocker(null);
      List<String> claims = batch.commands().stream().map(DisruptionCommand::nodeClaim).toList();
      state = state.withBatch(state.batch() + 1, claims);
      enter(canary ? CANARY : BATCH);
      List<WorkloadRef> moved = batch.workloadsOf(claims);
      Outcomes outcomes = replace(batch.commands(), true);
      state = state.withOutcomes(outcomes.replaced().size(), outcomes.failed().size(), outcomes.launchedClaims());
      if (abortRequest != null) {
        throw aborted();
      }
      if (state.failures() > input.maxFailures()) {
        throw tooManyFailures(outcomes.failed());
      }
      String gateFailed = gate(new HealthRequest(input.cluster(), outcomes.newNodes(), moved), "gate of batch " + state.batch(), true);
      if (gateFailed != null) {
        throw new RolloutStopped(gateFailed, false);
      }
      if (canary && input.approvalRequired()) {
        awaitApproval();
      }
      if (Workflow.getInfo().isContinueAsNewSuggested()) {
        Workflow.continueAsNew(input.continuedWith(state));
      }
    }
  }

  /**
   * The rollout's promise: it ends Succeeded only when every node of its NodePools runs a target image, as the cluster
   * says now. A node off target sends it back to rolling (the planner may hand it out now: it initialized, its hold was
   * lifted); one still off target after {@link #TARGET_CHECKS} looks fails the rollout with the nodes and what holds them.
   * Its own count is not enough: a node the planner skipped (an operator's abort mark) would be left on the old image
   * under a Succeeded.
   */
  private void rollUntilOnTarget() {
    for (int check = 1; ; check++) {
      List<OffTargetNode> off = rollout.offTarget(new TargetCheckRequest(input.cluster(), claim().nodePools(), claim().targetImages()));
      if (off.isEmpty()) {
        return;
      }
      String which = off.size() + " node(s) of " + String.join(", ", claim().nodePools()) + " not on the target images "
          + claim().targetImages() + ": " + String.join("; ", off.stream().limit(5).map(OffTargetNode::describe).toList())
          + (off.size() > 5 ? "; and " + (off.size() - 5) + " more" : "");
      StructuredLog.warn(log, "rollout found nodes off target at its end", "rollout", workflowId, "check", check,
          "nodes", off.stream().map(OffTargetNode::nodeClaim).toList());
      if (check >= TARGET_CHECKS) {
        throw new RolloutStopped(which, false);
      }
      enter(WAITING);
      setBlocker(which);
      Waits.awaitOrTimeout(REPLAN_INTERVAL, () -> abortRequest != null);
      checkAbort();
      rollForward();
    }
  }

  private RolloutStopped tooManyFailures(List<String> failed) {
    return new RolloutStopped(failed.isEmpty() ? state.failures() + " replacement(s) failed"
        : "replacement of " + String.join("; ", failed) + (input.maxFailures() > 0
            ? " (" + state.failures() + " failures, more than --max-failures " + input.maxFailures() + ")" : ""), false);
  }

  /**
   * After the canary with {@code --rolling}: up to a batch of replacements in flight, each gated on its own (its new
   * node and the moved workloads' pods on it, through the soak: {@link HealthGate#check}),
   * and the next planned as soon as one has passed its gate. At most a batch of nodes is unproven at any time, as with batches, but a slow replacement holds only its own
   * slot, not the whole batch. A failed gate, too many failures, a step failing past its retries or an abort stop new
   * starts; the replacements in flight finish (an abort is passed on to them) before the rollback, so every node they
   * launched is known to it. A change freeze or the budgets hold new starts only.
   *
   * <p>It continues as new when Temporal suggests it or after {@link #MAX_STARTS_PER_RUN} starts, with its slots in flight
   * ({@link UpgradeState#carried}) rather than after waiting for its window to drain (in a 500-node roll each drain left
   * slots idle for about one replacement's time, twice a roll). The next run gates the carried slots again and follows
   * their running replacements ({@link RolloutActivities#awaitClosed}).
   */
  private void rollOn(BatchSize size) {
    int max = size.of(Math.max(state.total(), 1));
    Map<String, Promise<ReplacementResult>> replacements = new LinkedHashMap<>();
    Map<String, Promise<String>> slots = new LinkedHashMap<>();
    Map<String, List<WorkloadRef>> watched = new HashMap<>();
    takeOver(replacements, slots, watched);
    long planAt = 0;
    enter(UpgradePhase.ROLLING);
    while (true) {
      boolean freed = false;
      for (var it = slots.entrySet().iterator(); it.hasNext(); ) {
        var slot = it.next();
        if (slot.getValue().isCompleted()) {
          it.remove();
          freed = true;
          closeSlot(slot.getKey(), replacements.remove(slot.getKey()), slot.getValue().get());
        }
      }
      if (freed) {
        planAt = 0;
        state = state.withBatch(state.batch(), List.copyOf(slots.keySet()));
      }
      if (stopping == null && abortRequest != null) {
        stopping = aborted();
      }
      if (stopping != null) {
        if (abortRequest != null && !abortPassedOn) {
          // Also when the rollout was stopping already (a failed gate): an operator's abort hurries the slots along.
          abortPassedOn = true;
          passAbortOn(replacements);
        }
        if (slots.isEmpty()) {
          throw stopping;
        }
        setBlocker("stopping (" + stopping.getMessage() + "): waiting for " + slots.size() + " replacement(s) in flight");
        Workflow.await(() -> anyDone(slots) || (abortRequest != null && !abortPassedOn));
        continue;
      }
      if (Workflow.getInfo().isContinueAsNewSuggested() || startedThisRun >= MAX_STARTS_PER_RUN) {
        Workflow.continueAsNew(input.continuedWith(state.withCarried(carry(slots, replacements, watched))));
      }
      if (slots.size() < max && Workflow.currentTimeMillis() >= planAt) {
        try {
          planAt = refill(max, replacements, slots, watched);
        } catch (ActivityFailure failure) {
          stopping = new RolloutStopped("a step failed: " + Failures.reason(failure), false);
        }
        if (stopping != null || abortRequest != null) {
          continue;
        }
        if (planAt < 0) {
          return;
        }
      }
      long wait = Math.max(planAt - Workflow.currentTimeMillis(), 1);
      if (slots.size() >= max) {
        Workflow.await(() -> anyDone(slots) || abortRequest != null);
      } else {
        Waits.awaitOrTimeout(Duration.ofMillis(wait), () -> anyDone(slots) || abortRequest != null);
      }
    }
  }

  private static boolean anyDone(Map<String, Promise<String>> slots) {
    return slots.values().stream().anyMatch(Promise::isCompleted);
  }

  /** The slots in flight, for the next run: each with what its gate watches and its replacement's end, if known. */
  private static List<CarriedSlot> carry(Map<String, Promise<String>> slots, Map<String, Promise<ReplacementResult>> replacements,
      Map<String, List<WorkloadRef>> watched) {
    List<CarriedSlot> carried = new ArrayList<>();
    for (String claim : slots.keySet()) {
      Promise<ReplacementResult> replacement = replacements.get(claim);
      List<WorkloadRef> moved = watched.getOrDefault(claim, List.of());
      if (!replacement.isCompleted()) {
        carried.add(new CarriedSlot(claim, moved, null, null));
      } else if (replacement.getFailure() != null) {
        carried.add(new CarriedSlot(claim, moved, null, reasonOf(replacement.getFailure())));
      } else {
        carried.add(new CarriedSlot(claim, moved, replacement.get(), null));
      }
    }
    return carried;
  }

  /**
   * Takes over the slots the run before carried: each is gated again from the start (a soak begun before is begun
   * again), and the replacements still running are followed until they close ({@link #follow}).
   */
  private void takeOver(Map<String, Promise<ReplacementResult>> replacements, Map<String, Promise<String>> slots,
      Map<String, List<WorkloadRef>> watched) {
    List<CarriedSlot> carried = state.carried();
    if (carried.isEmpty()) {
      return;
    }
    state = state.withCarried(List.of());
    Map<String, CompletablePromise<ReplacementResult>> running = new LinkedHashMap<>();
    for (CarriedSlot slot : carried) {
      String claim = slot.nodeClaim();
      Promise<ReplacementResult> replacement;
      if (slot.running()) {
        CompletablePromise<ReplacementResult> closes = Workflow.newPromise();
        running.put(claim, closes);
        replacement = closes;
      } else {
        replacement = slot.failure() != null ? Workflow.newFailedPromise(carriedFailure(slot.failure()))
            : Workflow.newPromise(slot.result());
      }
      replacements.put(claim, replacement);
      watched.put(claim, slot.moved());
      slots.put(claim, Async.function(() -> gateOf(claim, replacement, slot.moved())));
    }
    if (!running.isEmpty()) {
      Async.procedure(() -> follow(running));
    }
    StructuredLog.info(log, "rollout took over its slots in flight", "rollout", workflowId, "slots", carried.size(),
        "running", running.size());
  }

  /**
   * Waits for the carried replacements still running to close, and completes each one's promise with its result or
   * failure. A follow that fails past its retries (Temporal not answering) is tried again after {@link #REPLAN_INTERVAL}:
   * the slots wait, which is the safe side.
   */
  private void follow(Map<String, CompletablePromise<ReplacementResult>> running) {
    while (running.values().stream().anyMatch(p -> !p.isCompleted())) {
      List<String> open = running.entrySet().stream().filter(e -> !e.getValue().isCompleted()).map(Map.Entry::getKey).toList();
      List<ClosedReplacement> closed;
      try {
        closed = rollout.awaitClosed(new FollowRequest(input.cluster(), open, FOLLOW_WAIT.toSeconds()));
      } catch (ActivityFailure failure) {
        StructuredLog.warn(log, "rollout cannot follow its carried replacements, trying again", "rollout", workflowId,
            "error", Failures.reason(failure));
        Workflow.sleep(REPLAN_INTERVAL);
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
          closes.completeExceptionally(carriedFailure(done.failure()));
        }
      }
    }
  }

  private static ApplicationFailure carriedFailure(String reason) {
    return ApplicationFailure.newFailure(reason, CARRIED_FAILURE);
  }

  /** Why a replacement failed: a carried one as the run before (or the follow) said, a child's from its failure. */
  private static String reasonOf(RuntimeException failure) {
    return failure instanceof ApplicationFailure carried && CARRIED_FAILURE.equals(carried.getType())
        ? carried.getOriginalMessage() : Failures.reason(failure);
  }

  /**
   * Plans up to the free slots and starts them. Returns when to plan again: now (0) after a full answer, after
   * {@link #REPLAN_INTERVAL} (or the next slot freed) when the planner held the rest, or -1 when nothing remains.
   */
  private long refill(int max, Map<String, Promise<ReplacementResult>> replacements, Map<String, Promise<String>> slots,
      Map<String, List<WorkloadRef>> watched) {
    RolloutBatch next = planNext(max - slots.size(), List.copyOf(slots.keySet()));
    long later = Workflow.currentTimeMillis() + REPLAN_INTERVAL.toMillis();
    if (next.frozen() != null) {
      // A change freeze holds new starts; the replacements in flight finish.
      if (slots.isEmpty()) {
        enter(WAITING);
      }
      setBlocker(next.frozen());
      return later;
    }
    remaining = next.remaining();
    if (next.commands().isEmpty()) {
      if (next.remaining() == 0 && slots.isEmpty()) {
        setBlocker(null);
        return -1;
      }
      if (slots.isEmpty()) {
        enter(WAITING);
      }
      setBlocker(heldBy(next, null));
      return later;
    }
    setBlocker(null);
    enter(UpgradePhase.ROLLING);
    if (abortRequest != null) {
      return 0; // aborted while planning: nothing more is started
    }
    List<String> failed = new ArrayList<>();
    startedThisRun += next.commands().size();
    start(next.commands(), failed).forEach((claim, result) -> {
      // A replacement's gate watches the pods moved off its own node.
      List<WorkloadRef> moved = next.workloadsOf(List.of(claim));
      replacements.put(claim, result);
      watched.put(claim, moved);
      slots.put(claim, Async.function(() -> gateOf(claim, result, moved)));
    });
    state = state.withBatch(state.batch() + 1, List.copyOf(slots.keySet()));
    if (!failed.isEmpty()) {
      state = state.withOutcomes(0, failed.size(), List.of()).withBatch(state.batch(), List.copyOf(slots.keySet()));
      if (state.failures() > input.maxFailures()) {
        stopping = tooManyFailures(failed);
      }
    }
    // Slots still free: the planner held the rest, or a replacement someone else started (an expiry) runs for a claim
    // it gave, which Temporal may not list yet. Either way, plan again when a slot frees or after the interval.
    return slots.size() < max ? later : 0;
  }

  /**
   * The planner's answer for up to {@code max} more replacements, {@code inFlight} counted as being replaced; an answer
   * with {@link RolloutBatch#frozen} set while a change freeze holds the rollout. One activity ({@link
   * RolloutScope#inOneStep}) answers the freeze, the plan and what runs on the old nodes: as three round trips through the
   * workflow, a freed slot of a 500-node rolling roll waited 5.7 s (median) for its next replacement.
   */
  private RolloutBatch planNext(int max, List<String> inFlight) {
    return planning.planRollout(new PlanDisruptionRequest(input.cluster(),
        new RolloutScope(workflowId, claim().nodePools(), max, List.of(), inFlight, true)));
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
      return gate(new HealthRequest(input.cluster(), List.of(done.replacementNode()), moved, true), what, false);
    } catch (ActivityFailure failure) {
      return what + ": a step failed: " + Failures.reason(failure);
    }
  }

  /** Counts a closed slot into the state; a failed gate or one failure too many stops the rollout. */
  private void closeSlot(String claim, Promise<ReplacementResult> replacement, String gateFailed) {
    Outcome done = outcome(claim, replacement);
    state = state.withOutcomes(done.replaced() ? 1 : 0, done.failed() == null ? 0 : 1,
        done.launched() == null ? List.of() : List.of(done.launched()));
    if (stopping == null && done.failed() != null && state.failures() > input.maxFailures()) {
      stopping = tooManyFailures(List.of(done.failed()));
    }
    if (stopping == null && gateFailed != null) {
      stopping = new RolloutStopped(gateFailed, false);
    }
  }

  /** What the replacements of one batch came to. */
  private record Outcomes(List<String> replaced, List<String> failed, List<String> launchedClaims, List<String> newNodes) {}

  /**
   * Starts one {@code disrupt/<nodeclaim>} replacement per command and waits for all of them. An abort (when
   * {@code abortable}) is passed on to the replacements still running; they roll themselves back if they can.
   */
  private Outcomes replace(List<DisruptionCommand> commands, boolean abortable) {
    List<String> failed = new ArrayList<>();
    Map<String, Promise<ReplacementResult>> running = start(commands, failed);
    boolean abortPassedOn = false;
    while (!running.values().stream().allMatch(Promise::isCompleted)) {
      Workflow.await(() -> running.values().stream().allMatch(Promise::isCompleted) || (abortable && abortRequest != null));
      if (abortable && abortRequest != null && !abortPassedOn) {
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

  /** What one replacement came to: its claim replaced, or why it failed; the claim it launched, if any. */
  private record Outcome(boolean replaced, String failed, String launched, String newNode) {}

  private static Outcome outcome(String claim, Promise<ReplacementResult> result) {
    try {
      ReplacementResult done = result.get();
      return new Outcome("Done".equals(done.outcome()), null, done.replacementNodeClaim(), done.replacementNode());
    } catch (TemporalFailure failure) {
      return new Outcome(false, claim + " failed: " + reasonOf(failure), null, null);
    }
  }

  /**
   * Tells the replacements still running that the rollout was aborted ({@link NodeReplacementWorkflow#rolloutAborted}):
   * they roll themselves back if they can, and leave their nodes unmarked for the next rollout.
   */
  private void passAbortOn(Map<String, Promise<ReplacementResult>> running) {
    running.forEach((claim, result) -> {
      if (!result.isCompleted()) {
        try {
          Workflow.newExternalWorkflowStub(NodeReplacementWorkflow.class, WorkflowIds.disruption(claim))
              .rolloutAborted("rollout " + workflowId + " aborted: " + abortRequest.describe());
        } catch (ApplicationFailure | SignalExternalWorkflowException closed) {
          // It closed after all (the signal found no running workflow: NOT_FOUND); its result says how.
        }
      }
    });
  }

  /**
   * Starts one {@code disrupt/<nodeclaim>} replacement per command and returns the ones that started, by claim; the ones
   * that could not start are added to {@code failed}. All are asked for in one workflow task, then their starts awaited:
   * one start after the other (a workflow task round trip each) took a batch of 50 on a 500-node fleet about 20 s to
   * reach full concurrency.
   */
  private Map<String, Promise<ReplacementResult>> start(List<DisruptionCommand> commands, List<String> failed) {
    ReconcilerSettings settings = claim().settings() == null ? ReconcilerSettings.DEFAULTS : claim().settings();
    Map<String, Promise<ReplacementResult>> running = new LinkedHashMap<>();
    List<Runnable> starts = new ArrayList<>();
    for (DisruptionCommand command : commands) {
      NodeReplacementWorkflow child = Workflow.newChildWorkflowStub(NodeReplacementWorkflow.class,
          ChildWorkflowStarts.disruption(command.nodeClaim()));
      Promise<ReplacementResult> result = Async.function(child::replace, new ReplacementInput(input.cluster(), command,
          settings.launchSettings(), settings.drainPollSeconds(), settings.drainPollMaxSeconds()).ownedBy(workflowId));
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
   * Waits until the new nodes and moved pods are Ready (at most the gate timeout), then watches them through the soak
   * time. Returns null when they passed, or why not (a crash-looping or restarting pod, the timeout), starting with
   * {@code what}. The {@code shared} gate is the rollout's one step (a batch's): it shows its phases and blocker, and an
   * abort stops it at once; otherwise it is one replacement's among others ({@code --rolling}), which shows nothing
   * of its own and ends quietly (null) once the rollout is stopping, at its next look.
   */
  private String gate(HealthRequest request, String what, boolean shared) {
    if (shared) {
      enter(GATE);
    }
    long deadline = Workflow.currentTimeMillis() + input.gateTimeoutSeconds() * 1000;
    HealthObservation seen;
    while (true) {
      if (ended(shared)) {
        return null;
      }
      seen = rollout.observeHealth(request);
      HealthGate.Verdict verdict = HealthGate.check(request, seen, null, !shared);
      if (verdict.kind() == HealthGate.Kind.FAILED) {
        return what + " failed: " + verdict.detail();
      }
      if (verdict.kind() == HealthGate.Kind.HEALTHY) {
        break;
      }
      if (Workflow.currentTimeMillis() >= deadline) {
        return what + " timed out after " + input.gateTimeoutSeconds() + "s: " + verdict.detail();
      }
      if (shared) {
        setBlocker("gate: " + verdict.detail());
      }
      pause(GATE_INTERVAL, shared);
    }
    if (shared) {
      setBlocker(null);
    }
    if (input.soakSeconds() == 0) {
      return null;
    }
    if (shared) {
      enter(SOAKING);
    }
    Map<String, Integer> restarts = new HashMap<>();
    seen.pods().forEach(p -> restarts.put(p.key(), p.restarts()));
    long soakEnds = Workflow.currentTimeMillis() + input.soakSeconds() * 1000;
    while (Workflow.currentTimeMillis() < soakEnds) {
      pause(Duration.ofMillis(Math.min(GATE_INTERVAL.toMillis(), soakEnds - Workflow.currentTimeMillis())), shared);
      if (ended(shared)) {
        return null;
      }
      HealthGate.Verdict verdict = HealthGate.check(request, rollout.observeHealth(request), restarts, !shared);
      if (verdict.kind() == HealthGate.Kind.FAILED) {
        return what + " failed during the soak: " + verdict.detail();
      }
      if (verdict.kind() == HealthGate.Kind.WAITING && Workflow.currentTimeMillis() >= soakEnds) {
        return what + " failed: not Ready at the end of the soak: " + verdict.detail();
      }
    }
    return null;
  }

  /**
   * Between a gate's looks. The shared gate wakes on an abort; one replacement's gate sleeps and sees the rollout's stop
   * or an abort at its next look, at most {@link #GATE_INTERVAL} later, so it never cancels a timer: when one gate stopped
   * the rollout while another's timer was firing, Temporal's time-skipping test server refused that cancel and left the
   * run without a workflow task (temporalio/sdk-java#2606).
   */
  private void pause(Duration interval, boolean shared) {
    if (shared) {
      Waits.awaitOrTimeout(interval, () -> abortRequest != null);
    } else {
      Workflow.sleep(interval);
    }
  }

  /** A shared gate throws on an abort; one replacement's gate ends once the rollout is stopping, whatever the cause. */
  private boolean ended(boolean shared) {
    if (shared) {
      checkAbort();
      return false;
    }
    return stopping != null || abortRequest != null;
  }

  private void awaitApproval() {
    enter(AWAITING_APPROVAL);
    setBlocker("waiting for Approve after the canary (farrier upgrade approve)");
    Workflow.await(() -> approval != null || abortRequest != null);
    setBlocker(null);
    checkAbort();
    StructuredLog.info(log, "rollout approved after the canary", "rollout", workflowId, "by", approval.describe());
  }

  /**
   * Puts the previous images back and replaces the nodes this rollout launched by nodes on them, batch by batch
   * (budgets and PDBs still hold; no gate: the previous images are the known good ones). Returns how many were
   * replaced back.
   */
  private int rollBack() {
    enter(ROLLING_BACK);
    setBlocker(null);
    if (!claim().alreadyOnTarget()) {
      switchImages(claim().previousTerms(), claim().previousAmiFamily(), false, claim().previousImages());
    }
    if (state.launched().isEmpty()) {
      return 0;
    }
    int back = 0;
    int failed = 0;
    int size = BatchSize.parse(input.batchSize()).of(Math.max(state.total(), 1));
    while (failed < ROLLBACK_ATTEMPTS) {
      RolloutBatch batch = planning.planRollout(new PlanDisruptionRequest(input.cluster(),
          new RolloutScope(workflowId, claim().nodePools(), size, state.launched())));
      if (batch.commands().isEmpty()) {
        if (batch.remaining() == 0) {
          return back;
        }
        setBlocker("rollback: " + heldBy(batch, IN_FLIGHT_ONLY));
        Workflow.sleep(REPLAN_INTERVAL);
        continue;
      }
      Outcomes outcomes = replace(batch.commands(), false);
      back += outcomes.replaced().size();
      failed += outcomes.failed().size();
    }
    state = state.withCause(state.cause() + "; the rollback could not replace every new node (" + failed
        + " failures): see the disrupt/ workflows of " + state.launched());
    return back;
  }

  private void switchImages(List<AmiTerm> terms, String amiFamily, boolean forward, List<String> images) {
    var request = new SwitchImagesRequest(input.cluster(), workflowId, claim().nodeClass(), terms, amiFamily, forward, images);
    rollout.switchImages(request);
    rollout.awaitImages(request);
  }

  /** Gives the NodePools back; the EC2NodeClass's rollout record too, unless a failed rollback left it for a person. */
  private void release(boolean nodeClassToo) {
    rollout.release(new ReleaseRolloutRequest(input.cluster(), workflowId, claim().nodePools(),
        nodeClassToo ? claim().nodeClass() : null));
  }

  private RolloutClaim claim() {
    return state.claim();
  }

  private void checkAbort() {
    if (abortRequest != null) {
      throw aborted();
    }
  }

  private RolloutStopped aborted() {
    return new RolloutStopped("aborted: " + abortRequest.describe(), true);
  }

  /**
   * Why the remaining nodes wait, from the planner's answer (which leaves the rollout's own replacements in flight out):
   * the first reason, and how many wait. {@code whenNone} when none wait.
   */
  private static String heldBy(RolloutBatch batch, String whenNone) {
    if (batch.held().isEmpty()) {
      return whenNone;
    }
    CandidateDecision first = batch.held().getFirst();
    int count = batch.heldCount();
    return first.nodeClaim() + ": " + first.reason() + (count > 1 ? " (and " + (count - 1) + " more)" : "");
  }

  // Operator actions.

  @Override
  public void validateApprove(OperatorRequest request) {
    refuseIf(state.phase() != AWAITING_APPROVAL, "it is not waiting for approval (phase " + state.phase().label() + ")");
  }

  @Override
  public String approve(OperatorRequest request) {
    approval = request == null ? new OperatorRequest(null, null) : request;
    return workflowId + ": approved, rolling on after the canary" + (request != null && request.hasReason() ? " (" + request.describe() + ")" : "");
  }

  @Override
  public void validateAbort(OperatorRequest request) {
    refuseIf(state.phase().stopping(), "it is " + state.phase().label() + " already: nothing to abort");
    refuseIf(abortRequest != null, "an abort is already stopping it (" + (abortRequest == null ? "" : abortRequest.describe()) + ")");
    refuseIf(request == null || !request.hasReason(), "an abort needs a reason (it is the rollout's result)");
  }

  @Override
  public String abort(OperatorRequest request) {
    abortRequest = request;
    return workflowId + ": abort accepted in phase " + state.phase().label() + ": stopping and rolling back (" + request.describe() + ")";
  }


  @Override
  public UpgradeProgress progress() {
    RolloutClaim c = state.claim();
    return new UpgradeProgress(state.phase().label(), input == null ? null : input.targetText(),
        c == null ? input == null ? List.of() : input.nodePools() : c.nodePools(), c == null ? null : c.nodeClass(),
        state.batch(), state.total(), state.replaced(), remaining, state.failures(), state.current(), state.blocker(),
        state.blockedSinceMillis(), state.cause(), input == null ? null : input.requestedBy());
  }

  // Visibility.

  private void enter(UpgradePhase phase) {
    state = state.withPhase(phase);
    Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.PHASE.valueSet(phase.label()));
  }

  private void setBlocker(String blocker) {
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

  private void upsertIdentity() {
    List<String> pools = state.claim() != null ? state.claim().nodePools() : input.nodePools();
    List<SearchAttributeUpdate<?>> updates = new ArrayList<>(List.of(
        FarrierSearchAttributes.CLUSTER.valueSet(input.cluster()),
        FarrierSearchAttributes.REASON.valueSet(FarrierSearchAttributes.keyword("upgrade to " + input.targetText()))));
    if (!pools.isEmpty()) {
      updates.add(FarrierSearchAttributes.NODE_POOL.valueSet(FarrierSearchAttributes.keyword(String.join("+", pools))));
    }
    Workflow.upsertTypedSearchAttributes(updates.toArray(SearchAttributeUpdate[]::new));
  }


  private UpgradeResult result(String outcome, String cause, int rolledBack) {
    RolloutClaim c = claim();
    return new UpgradeResult(outcome, cause, c.nodePools(), c.nodeClass(), input.targetText(), c.targetImages(),
        state.batch(), state.replaced(), state.total(), state.failures(), rolledBack);
  }
}
