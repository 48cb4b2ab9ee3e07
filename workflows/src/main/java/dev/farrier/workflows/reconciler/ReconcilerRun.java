package dev.farrier.workflows.reconciler;

import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.Freeze;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.workflows.ActivityStubs;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.workflows.activities.PlanningActivities;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;

/**
 * One run of the reconciler: the cluster and its settings, the pods queued for or in a provisioning batch
 * ({@link PodBatcher}), the replacements it started and the budget slots they freed, the cooldowns and the freezes.
 * The steps, the signals and the operator's Updates all read and change the reconciler through this one object;
 * {@link CarryOver} passes what must outlive the run to the next.
 */
final class ReconcilerRun {
  /** The reconciler's lines, whichever of its classes says them, are logged under the workflow's name. */
  static final Logger LOG = Workflow.getLogger(ClusterReconcilerWorkflowImpl.class);

  /** The status query lists this many recently started replacements. */
  static final int REPLACEMENTS_SHOWN = 50;

  final PlanningActivities planning = ActivityStubs.planning();
  final PodBatcher batcher = new PodBatcher();
  /** NodeClaims whose last replacement failed, by name: no new replacement before the time. */
  final Map<String, Cooldown> cooldowns = new LinkedHashMap<>();
  /** The freezes in force, by NodePool ({@link Freeze#CLUSTER_WIDE} for the cluster). */
  final Map<String, Freeze> freezes = new TreeMap<>();
  /** The replacements this run asked for, by workflow id: their closes are counted from their results, not signals. */
  final Set<String> followed = new HashSet<>();
  private final List<String> replacementsStarted = new ArrayList<>();
  /** Null until the workflow method runs (a signal, Update or query may come first). */
  String cluster;
  /** Null until the workflow method runs, unless an {@code updateSettings} signal came first: then that one holds. */
  ReconcilerSettings settings;
  long nextBatch;
  DisruptionPlan lastPlan;
  /**
   * Replacements that have closed (done, failed or aborted), each freeing a budget slot: those this run started, from
   * their results, and the others from their {@code replacementClosed} signals.
   */
  int replacementsClosed;

  /** Takes over the input: the cluster, the settings (unless a signal brought newer ones) and what the last run carried. */
  void begin(ReconcilerInput input) {
    cluster = input.cluster();
    if (settings == null) {
      settings = input.settings() == null ? ReconcilerSettings.DEFAULTS : input.settings();
    }
    nextBatch = input.nextBatch();
    input.carriedBatches().forEach(batcher::adopt);
    input.cooldowns().forEach(c -> cooldowns.put(c.nodeClaim(), c));
    input.freezes().forEach(f -> freezes.put(Freeze.key(f.nodePool()), f));
    batcher.offer(input.carriedPods(), Workflow.currentTimeMillis());
    Workflow.upsertTypedSearchAttributes(
        FarrierSearchAttributes.CLUSTER.valueSet(cluster),
        FarrierSearchAttributes.PHASE.valueSet("Running"));
  }

  /** When the open batch is due under the settings now; {@link Long#MAX_VALUE} when none is open. */
  long batchDueAt() {
    return batcher.dueAt(settings.batchIdleMillis(), settings.batchMaxMillis());
  }

  boolean batchDue() {
    return batcher.isDue(Workflow.currentTimeMillis(), settings.batchIdleMillis(), settings.batchMaxMillis());
  }

  /** Planning as a round does, under the freezes in force: for a round, or for the operator's preview. */
  PlanDisruptionRequest planRequest(PlanDisruptionRequest.Purpose purpose) {
    return new PlanDisruptionRequest(cluster, null, Freeze.byNodePool(freezes.values()), settings.nodeRepair(), purpose);
  }

  void replacementStarted(String id) {
    replacementsStarted.add(id);
    if (replacementsStarted.size() > REPLACEMENTS_SHOWN) {
      replacementsStarted.removeFirst();
    }
  }

  ReconcilerStatus status() {
    return new ReconcilerStatus(lastPlan, batcher.inFlightBatches(), List.copyOf(replacementsStarted),
        batcher.queuedCount(), nextBatch, List.copyOf(cooldowns.values()), List.copyOf(freezes.values()));
  }
}
