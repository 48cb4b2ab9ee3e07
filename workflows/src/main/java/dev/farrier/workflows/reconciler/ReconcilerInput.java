package dev.farrier.workflows.reconciler;

import dev.farrier.model.Freeze;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.model.PodRef;
import java.util.List;

/**
 * Input of {@link ClusterReconcilerWorkflow}, also what it carries across continue-as-new: the next batch number,
 * the pending pods not yet handed to a batch, the batches still in flight, the replacements cooling down, and the
 * change freezes in force.
 */
public record ReconcilerInput(String cluster, ReconcilerSettings settings, long nextBatch, List<PodRef> carriedPods,
    List<CarriedBatch> carriedBatches, List<Cooldown> cooldowns, List<Freeze> freezes) {
  public ReconcilerInput {
    freezes = freezes == null ? List.of() : List.copyOf(freezes);
    carriedPods = carriedPods == null ? List.of() : List.copyOf(carriedPods);
    carriedBatches = carriedBatches == null ? List.of() : List.copyOf(carriedBatches);
    cooldowns = cooldowns == null ? List.of() : List.copyOf(cooldowns);
  }

  /** A fresh reconciler (nothing carried). */
  public ReconcilerInput(String cluster, ReconcilerSettings settings, long nextBatch, List<PodRef> carriedPods) {
    this(cluster, settings, nextBatch, carriedPods, List.of(), List.of(), List.of());
  }
}
