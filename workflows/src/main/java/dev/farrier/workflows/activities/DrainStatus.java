package dev.farrier.workflows.activities;

import java.util.List;

/**
 * What one drain pass did and what is left.
 *
 * @param evicted       pods evicted (or deleted) by this pass, as namespace/name
 * @param remaining     pods still on the node that must leave before it can go (DaemonSet and mirror pods excluded)
 * @param blockingPdbs  PodDisruptionBudgets (namespace/name) that refused an eviction in this pass
 * @param doNotDisrupt  pods with {@code karpenter.sh/do-not-disrupt} that this pass did not evict
 * @param failures      pods whose eviction failed for another reason, with the error (e.g. a pod two PDBs cover);
 *                      one bad pod never stops the pass for the others
 */
public record DrainStatus(List<String> evicted, List<String> remaining, List<String> blockingPdbs, List<String> doNotDisrupt,
    List<String> failures) {
  public DrainStatus {
    evicted = List.copyOf(evicted);
    remaining = List.copyOf(remaining);
    blockingPdbs = List.copyOf(blockingPdbs);
    doNotDisrupt = List.copyOf(doNotDisrupt);
    failures = failures == null ? List.of() : List.copyOf(failures);
  }

  public DrainStatus(List<String> evicted, List<String> remaining, List<String> blockingPdbs, List<String> doNotDisrupt) {
    this(evicted, remaining, blockingPdbs, doNotDisrupt, List.of());
  }

  public boolean drained() {
    return remaining.isEmpty();
  }
}
