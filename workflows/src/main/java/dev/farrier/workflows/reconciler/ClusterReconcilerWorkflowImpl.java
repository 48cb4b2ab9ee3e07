package dev.farrier.workflows.reconciler;

import dev.farrier.model.Freeze;
import dev.farrier.model.ReconcilerSettings;
import static dev.farrier.workflows.Refusals.refuseIf;

import dev.farrier.workflows.ActivityStubs;
import dev.farrier.workflows.ChildWorkflowStarts;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.Waits;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.model.PodRef;
import dev.farrier.workflows.provisioning.LaunchesClosed;
import dev.farrier.workflows.provisioning.ProvisioningInput;
import dev.farrier.workflows.provisioning.ProvisioningResult;
import dev.farrier.workflows.provisioning.ProvisioningWorkflow;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.ReplacementInput;
import dev.farrier.model.ReplacementResult;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;

/**
 * The cluster's entity workflow. One loop, woken by new pods, by a replacement closing (the next disruption round is
 * brought forward to {@link #REFILL_DELAY} after it, so its budget slot is refilled at once) or by the next deadline (a
 * batch falling due, the next disruption round), does at most one of each per turn. Signals only change state; all
 * work happens in the loop.
 *
 * <p>History stays bounded: the loop continues as new when the server suggests it or after
 * {@link #MAX_TURNS} turns, but only once no provisioning batch is in flight (a batch's pods would otherwise be
 * forgotten while their launches run) and every handler has finished. Replacements are abandoned children and
 * need no waiting for.
 */
public class ClusterReconcilerWorkflowImpl implements ClusterReconcilerWorkflow {
  private static final Logger log = Workflow.getLogger(ClusterReconcilerWorkflowImpl.class);

  /** Roughly 5 events a turn: a few thousand events per run, far below the history limits. */
  static final int MAX_TURNS = 500;
  /** The status query lists this many recently started replacements. */
  static final int REPLACEMENTS_SHOWN = 50;
  /** How much longer than a launch may take a carried batch's pods stay out of new batches. */
  static final long CARRY_MARGIN_MILLIS = 5 * 60_000;
  /**
   * Pods per provisioning batch. A batch's pod list travels to the planning activity and its plan comes back through
   * Temporal, whose payloads must stay under 2 MB: 10,000 pods made a 1.3 MB list and, when none could be placed, a
   * 4 MB plan; 1,000 keep both near a tenth of that. More pending pods go out as several batches back to back.
   */
  static final int MAX_BATCH_PODS = 1_000;
  /**
   * Queued pods carried across continue-as-new (about 0.6 MB); the input of the next run must stay under Temporal's
   * 2 MB payload limit, and pods beyond it are still pending, so the informer's resync brings them back.
   */
  static final int MAX_CARRIED_PODS = 5_000;
  /**
   * How long after a replacement closes its slot is planned again: enough for the worker's informers to see the deleted
   * NodeClaim (milliseconds on a healthy API server), and one round for replacements that close together. Without it a
   * fleet drift under a budget of 50 ran at 75% of it, each freed slot idle for half an interval on average.
   */
  static final Duration REFILL_DELAY = Duration.ofSeconds(1);

  private final PodBatcher batcher = new PodBatcher();
  private final List<String> replacementsStarted = new ArrayList<>();
  private DisruptionPlan lastPlan;
  private long nextBatch;
  private ReconcilerSettings settings;
  private String cluster;
  /** NodeClaims whose last replacement failed, by name: no new replacement before the time. */
  private final Map<String, Cooldown> cooldowns = new LinkedHashMap<>();
  /** The freezes in force, by NodePool ({@link Freeze#CLUSTER_WIDE} for the cluster). */
  private final Map<String, Freeze> freezes = new java.util.TreeMap<>();
  /**
   * Replacements that have closed (done, failed or aborted), each freeing a budget slot: those this run started, from
   * their results, and the others from their {@code replacementClosed} signals.
   */
  private int replacementsClosed;
  /** The replacements this run asked for, by workflow id: their closes are counted from their results, not signals. */
  private final Set<String> followed = new HashSet<>();
  /**
   * Batcher signals handled before {@link #run} took over the carried state, in order; null once it has. Pods and closed
   * batches signalled in the run's first workflow task (the SDK runs those handlers before the workflow method;
   * signal-with-start always does) must not be applied first: a pod of a carried batch would be queued again (a second
   * NodeClaim for it) and a carried batch that had closed would be held until its release time.
   */
  private List<Runnable> beforeRun = new ArrayList<>();

  @Override
  public void run(ReconcilerInput input) {
    cluster = input.cluster();
    if (settings == null) {
      settings = input.settings() == null ? ReconcilerSettings.DEFAULTS : input.settings();
    }
    PlanningActivities planning = ActivityStubs.planning();
    nextBatch = input.nextBatch();
    input.carriedBatches().forEach(batcher::adopt);
    input.cooldowns().forEach(c -> cooldowns.put(c.nodeClaim(), c));
    input.freezes().forEach(f -> freezes.put(Freeze.key(f.nodePool()), f));
    batcher.offer(input.carriedPods(), Workflow.currentTimeMillis());
    Workflow.upsertTypedSearchAttributes(
        FarrierSearchAttributes.CLUSTER.valueSet(cluster),
        FarrierSearchAttributes.PHASE.valueSet("Running"));

    applySignalsBeforeRun();
    long nextDisruptionAt = Workflow.currentTimeMillis() + settings.disruptionIntervalMillis();
    int closedSeen = 0;
    for (int turn = 1; ; turn++) {
      if (replacementsClosed != closedSeen) {
        closedSeen = replacementsClosed;
        nextDisruptionAt = Math.min(nextDisruptionAt, Workflow.currentTimeMillis() + REFILL_DELAY.toMillis());
      }
      if (batcher.isDue(Workflow.currentTimeMillis(), settings.batchIdleMillis(), settings.batchMaxMillis())) {
        startProvisioning(cluster, settings);
      }
      if (Workflow.currentTimeMillis() >= nextDisruptionAt) {
        planAndDisrupt(cluster, settings, planning);
        nextDisruptionAt = Workflow.currentTimeMillis() + settings.disruptionIntervalMillis();
      }

      if (turn >= MAX_TURNS || Workflow.getInfo().isContinueAsNewSuggested()) {
        // Batches in flight go along (a busy cluster always has one), kept out of new batches for a bounded time.
        Workflow.await(Workflow::isEveryHandlerFinished);
        long now = Workflow.currentTimeMillis();
        var launch = settings.launchSettings();
        long release = now + (launch.registrationTimeoutSeconds() + launch.initializationTimeoutSeconds()) * 1000 + CARRY_MARGIN_MILLIS;
        cooldowns.values().removeIf(c -> c.untilMillis() <= now);
        StructuredLog.info(log, "continuing as new", "cluster", cluster, "nextBatch", nextBatch,
            "carriedPods", batcher.queuedCount(), "carriedBatches", batcher.inFlightBatches().size());
        List<PodRef> carried = batcher.queued();
        if (carried.size() > MAX_CARRIED_PODS) {
          // The rest are still pending; the informer's resync signals them again within 30 s.
          StructuredLog.warn(log, "queued pods left to the informer's resync", "cluster", cluster,
              "carried", MAX_CARRIED_PODS, "left", carried.size() - MAX_CARRIED_PODS);
          carried = batcher.queued(MAX_CARRIED_PODS);
        }
        Workflow.continueAsNew(new ReconcilerInput(cluster, settings, nextBatch, carried, batcher.carry(release),
            List.copyOf(cooldowns.values()), List.copyOf(freezes.values())));
        return;
      }

      long now = Workflow.currentTimeMillis();
      long wakeAt = Math.min(nextDisruptionAt, batcher.dueAt(settings.batchIdleMillis(), settings.batchMaxMillis()));
      long arrivalsSeen = batcher.arrivals();
      int closedBefore = closedSeen;
      Waits.awaitOrTimeout(Duration.ofMillis(Math.max(1, wakeAt - now)),
          () -> batcher.arrivals() != arrivalsSeen || replacementsClosed != closedBefore);
    }
  }

  @Override
  public void podsPending(PendingPods pods) {
    toBatcher(() -> batcher.offer(pods.pods(), Workflow.currentTimeMillis()));
  }

  @Override
  public void batchClosed(String batchId) {
    if (batchId != null) {
      toBatcher(() -> batcher.completed(batchId, Workflow.currentTimeMillis()));
    }
  }

  @Override
  public void launchesClosed(LaunchesClosed closed) {
    if (closed != null && closed.batchId() != null) {
      toBatcher(() -> batcher.released(closed.batchId(), closed.pods(), Workflow.currentTimeMillis()));
    }
  }

  @Override
  public void replacementClosed(String nodeClaim) {
    if (nodeClaim != null && !followed.contains(WorkflowIds.disruption(nodeClaim))) {
      replacementsClosed++;
    }
  }

  /** Applies a signal to the batcher now, or after {@link #run} has taken over the carried state if it has not yet. */
  private void toBatcher(Runnable signal) {
    if (beforeRun != null) {
      beforeRun.add(signal);
    } else {
      signal.run();
    }
  }

  private void applySignalsBeforeRun() {
    if (beforeRun != null) {
      List<Runnable> held = beforeRun;
      beforeRun = null;
      held.forEach(Runnable::run);
    }
  }

  @Override
  public void updateSettings(ReconcilerSettings newSettings) {
    if (newSettings != null && !newSettings.equals(settings)) {
      StructuredLog.info(log, "settings updated", "settings", newSettings);
      settings = newSettings;
    }
  }

  @Override
  public void validatePreviewPlan() {
    refuseIf(cluster == null || settings == null, "the reconciler has not started its run yet; ask again in a moment");
  }

  @Override
  public DisruptionPlan previewPlan() {
    return ActivityStubs.planning().planDisruption(new PlanDisruptionRequest(cluster, null, Freeze.byNodePool(freezes.values()),
        settings.nodeRepair(), PlanDisruptionRequest.Purpose.PREVIEW));
  }

  @Override
  public ReconcilerStatus status() {
    return new ReconcilerStatus(lastPlan, batcher.inFlightBatches(), List.copyOf(replacementsStarted),
        batcher.queuedCount(), nextBatch, List.copyOf(cooldowns.values()), List.copyOf(freezes.values()));
  }

  @Override
  public void validateFreeze(FreezeRequest request) {
    refuseIf(request == null || request.reason() == null || request.reason().isBlank(),
        "a freeze needs a reason (everyone who sees it reads it)");
    Freeze standing = freezes.get(Freeze.key(request.nodePool()));
    refuseIf(standing != null, "already " + (standing == null ? "" : standing.describe()));
  }

  @Override
  public String freeze(FreezeRequest request) {
    var freeze = new Freeze(request.nodePool(), request.reason().strip(), request.by(), Workflow.currentTimeMillis());
    freezes.put(Freeze.key(freeze.nodePool()), freeze);
    StructuredLog.warn(log, "change freeze", "scope", freeze.scope(), "reason", freeze.reason(), "by", freeze.by());
    upsertFreezes();
    return freeze.describe() + ": no voluntary disruption or upgrade batch starts until unfrozen";
  }

  @Override
  public void validateUnfreeze(FreezeRequest request) {
    String nodePool = request == null ? null : request.nodePool();
    refuseIf(!freezes.containsKey(Freeze.key(nodePool)), "not frozen " + Freeze.scope(nodePool)
        + (freezes.isEmpty() ? "" : "; in force: " + freezes.values().stream().map(Freeze::describe).toList()));
  }

  @Override
  public String unfreeze(FreezeRequest request) {
    Freeze lifted = freezes.remove(Freeze.key(request.nodePool()));
    StructuredLog.info(log, "change freeze lifted", "scope", lifted.scope(), "by", request.by());
    upsertFreezes();
    return "unfrozen " + lifted.scope() + " (was " + lifted.describe() + ")";
  }

  /** The reconciler's FarrierBlocker names the freezes in force, so the Temporal UI shows them. */
  private void upsertFreezes() {
    Workflow.upsertTypedSearchAttributes(freezes.isEmpty() ? FarrierSearchAttributes.BLOCKER.valueUnset()
        : FarrierSearchAttributes.BLOCKER.valueSet(FarrierSearchAttributes.keyword(freezes.values().stream()
            .map(Freeze::describe).collect(java.util.stream.Collectors.joining("; ")))));
  }

  /** Starts the due batch as {@code provision/<cluster>/<n>}; its pods stay in flight until the child closes. */
  private void startProvisioning(String cluster, ReconcilerSettings settings) {
    long batch = nextBatch++;
    String batchId = WorkflowIds.provisioning(cluster, batch);
    List<PodRef> pods = batcher.dispatch(batchId, MAX_BATCH_PODS);
    ProvisioningWorkflow child = Workflow.newChildWorkflowStub(ProvisioningWorkflow.class,
        ChildWorkflowStarts.provisioning(cluster, batch));
    Promise<ProvisioningResult> result = Async.function(child::provision,
        new ProvisioningInput(cluster, batchId, pods, settings.launchSettings()));
    try {
      Workflow.getWorkflowExecution(child).get();
    } catch (ChildWorkflowFailure failure) {
      if (ChildWorkflowStarts.alreadyStarted(failure)) {
        // A batch number is used once, ever (claim names derive from it): skip it and start the pods as the next.
        StructuredLog.warn(log, "batch id already used, retrying as the next batch", "batch", batchId);
        batcher.requeue(batchId, pods, Workflow.currentTimeMillis());
      } else {
        batcher.completed(batchId, Workflow.currentTimeMillis());
        StructuredLog.warn(log, "could not start provisioning batch", "batch", batchId,
            "pods", pods.size(), "error", Failures.reason(failure));
      }
      return;
    }
    StructuredLog.info(log, "provisioning batch started", "cluster", cluster, "batch", batchId, "pods", pods.size());
    result.handle((done, failure) -> {
      batcher.completed(batchId, Workflow.currentTimeMillis());
      if (failure != null) {
        StructuredLog.warn(log, "provisioning batch failed", "batch", batchId, "error", Failures.reason(failure));
      }
      return null;
    });
  }

  /**
   * Asks the planner for commands and starts one replacement child per command: all asked for in one workflow task,
   * then their starts awaited. One start after the other (a workflow task round trip each, about 1 s on a loaded
   * worker) took 26 s for a round of 26 replacements on a 500-node fleet, and its budget's 50 slots were never more
   * than 37 full.
   */
  private void planAndDisrupt(String cluster, ReconcilerSettings settings, PlanningActivities planning) {
    try {
      lastPlan = planning.planDisruption(new PlanDisruptionRequest(cluster, null, Freeze.byNodePool(freezes.values()),
          settings.nodeRepair(), PlanDisruptionRequest.Purpose.ROUND));
    } catch (ActivityFailure failure) {
      // The next round plans again; the entity must outlive a bad round.
      StructuredLog.warn(log, "disruption planning failed", "cluster", cluster, "error", Failures.reason(failure));
      return;
    }
    List<ReplacementStart> starts = new ArrayList<>();
    for (DisruptionCommand command : lastPlan.commands()) {
      ReplacementStart start = beginReplacement(cluster, settings, command);
      if (start != null) {
        starts.add(start);
      }
    }
    starts.forEach(this::confirmStarted);
  }

  /** A replacement child asked for, whose start is not confirmed yet. */
  private record ReplacementStart(DisruptionCommand command, String id, NodeReplacementWorkflow child,
      Promise<ReplacementResult> result) {}

  /** Asks for the command's replacement child, unless its NodeClaim is cooling down after a failure. */
  private ReplacementStart beginReplacement(String cluster, ReconcilerSettings settings, DisruptionCommand command) {
    String id = WorkflowIds.disruption(command.nodeClaim());
    Cooldown cooldown = cooldowns.get(command.nodeClaim());
    if (cooldown != null && Workflow.currentTimeMillis() < cooldown.untilMillis()) {
      StructuredLog.info(log, "replacement cooling down after a failure", "nodeclaim", command.nodeClaim(),
          "failures", cooldown.failures(), "retryAt", Instant.ofEpochMilli(cooldown.untilMillis()).toString());
      return null;
    }
    followed.add(id);
    NodeReplacementWorkflow child = Workflow.newChildWorkflowStub(NodeReplacementWorkflow.class,
        ChildWorkflowStarts.disruption(command.nodeClaim()));
    Promise<ReplacementResult> result = Async.function(child::replace, new ReplacementInput(cluster, command,
        settings.launchSettings(), settings.drainPollSeconds(), settings.drainPollMaxSeconds())
        .withApprovalRequired(command.approvalRequired()));
    return new ReplacementStart(command, id, child, result);
  }

  /** Waits until the child has started (or was refused: one is already running for the NodeClaim) and follows it. */
  private void confirmStarted(ReplacementStart start) {
    DisruptionCommand command = start.command();
    String id = start.id();
    Promise<ReplacementResult> result = start.result();
    try {
      Workflow.getWorkflowExecution(start.child()).get();
    } catch (ChildWorkflowFailure failure) {
      if (ChildWorkflowStarts.alreadyStarted(failure)) {
        // The id is the guarantee: one replacement per NodeClaim at a time, whoever started it.
        StructuredLog.info(log, "replacement already running, not started again", "nodeclaim", command.nodeClaim(),
            "workflow", id);
      } else {
        StructuredLog.warn(log, "could not start replacement", "nodeclaim", command.nodeClaim(),
            "error", Failures.reason(failure));
      }
      return;
    }
    replacementsStarted.add(id);
    if (replacementsStarted.size() > REPLACEMENTS_SHOWN) {
      replacementsStarted.removeFirst();
    }
    StructuredLog.info(log, "replacement started", "nodeclaim", command.nodeClaim(), "node", command.nodeName(),
        "method", command.method(), "reason", command.reason(), "workflow", id);
    result.handle((done, failure) -> {
      replacementsClosed++;
      if (failure != null) {
        Cooldown next = Cooldown.after(cooldowns.get(command.nodeClaim()), command.nodeClaim(), Workflow.currentTimeMillis());
        cooldowns.put(command.nodeClaim(), next);
        StructuredLog.warn(log, "replacement failed", "nodeclaim", command.nodeClaim(), "workflow", id,
            "error", Failures.reason(failure), "failures", next.failures(),
            "retryAt", Instant.ofEpochMilli(next.untilMillis()).toString());
      } else {
        cooldowns.remove(command.nodeClaim());
      }
      return null;
    });
  }
}
