package dev.farrier.workflows.reconciler;

import dev.farrier.workflows.model.PodRef;
import java.util.List;

/**
 * Input of {@link ClusterReconcilerWorkflow}, also what it carries across continue-as-new: the next batch number
 * and the pending pods not yet handed to a batch.
 */
public record ReconcilerInput(String cluster, ReconcilerSettings settings, long nextBatch, List<PodRef> carriedPods) {
  public ReconcilerInput {
    carriedPods = carriedPods == null ? List.of() : List.copyOf(carriedPods);
  }
}
