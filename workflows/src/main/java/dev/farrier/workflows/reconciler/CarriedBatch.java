package dev.farrier.workflows.reconciler;

import java.util.List;

/**
 * A provisioning batch still in flight when the reconciler continued as new. The new run cannot observe the old
 * run's child, so it keeps the batch's pods out of new batches until {@code releaseAtMillis} (the launch timeouts
 * plus a margin); a pod still pending after that is batched again.
 */
public record CarriedBatch(String batchId, List<String> podIds, long releaseAtMillis) {
  public CarriedBatch {
    podIds = List.copyOf(podIds);
  }
}
