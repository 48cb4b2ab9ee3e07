package dev.farrier.workflows.reconciler;

import static dev.farrier.workflows.reconciler.ReconcilerRun.LOG;

import dev.farrier.model.PodRef;
import dev.farrier.workflows.StructuredLog;
import io.temporal.workflow.Workflow;
import java.util.List;

/**
 * How a run hands over to the next (continue-as-new), once every handler has finished: the next batch number, the
 * queued pods, the cooldowns and the freezes go along as they are. The batches in flight go along too (a busy cluster
 * always has one), since the next run cannot observe this run's children: it keeps their pods out of new batches until
 * their {@code batchClosed} signal or, at the latest, a release time ({@link CarriedBatch}). Replacements are abandoned
 * children and need no waiting for; their closes reach the next run as {@code replacementClosed} signals.
 */
final class CarryOver {
  /** How much longer than a launch may take a carried batch's pods stay out of new batches. */
  static final long CARRY_MARGIN_MILLIS = 5 * 60_000;
  /**
   * Queued pods carried across continue-as-new (about 0.6 MB); the input of the next run must stay under Temporal's
   * 2 MB payload limit, and pods beyond it are still pending, so the informer's resync brings them back.
   */
  static final int MAX_CARRIED_PODS = 5_000;

  private final ReconcilerRun reconciler;

  CarryOver(ReconcilerRun reconciler) {
    this.reconciler = reconciler;
  }

  void continueAsNew() {
    Workflow.await(Workflow::isEveryHandlerFinished);
    long now = Workflow.currentTimeMillis();
    var launch = reconciler.settings.launchSettings();
    long release = now + (launch.registrationTimeoutSeconds() + launch.initializationTimeoutSeconds()) * 1000 + CARRY_MARGIN_MILLIS;
    reconciler.cooldowns.values().removeIf(c -> c.untilMillis() <= now);
    PodBatcher batcher = reconciler.batcher;
    StructuredLog.info(LOG, "continuing as new", "cluster", reconciler.cluster, "nextBatch", reconciler.nextBatch,
        "carriedPods", batcher.queuedCount(), "carriedBatches", batcher.inFlightBatches().size());
    List<PodRef> carried = batcher.queued();
    if (carried.size() > MAX_CARRIED_PODS) {
      StructuredLog.warn(LOG, "queued pods left to the informer's resync", "cluster", reconciler.cluster,
          "carried", MAX_CARRIED_PODS, "left", carried.size() - MAX_CARRIED_PODS);
      carried = batcher.queued(MAX_CARRIED_PODS);
    }
    Workflow.continueAsNew(new ReconcilerInput(reconciler.cluster, reconciler.settings, reconciler.nextBatch, carried,
        batcher.carry(release), List.copyOf(reconciler.cooldowns.values()), List.copyOf(reconciler.freezes.values())));
  }
}
