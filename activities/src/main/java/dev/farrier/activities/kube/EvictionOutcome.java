package dev.farrier.activities.kube;

/** How an eviction ended when no PodDisruptionBudget blocked it (a block is a {@link PdbBlockedException}). */
public enum EvictionOutcome {
  /** The API server accepted the eviction: the pod is terminating. */
  EVICTED,
  /**
   * The pod was already gone (404) or is a different pod now (409: the UID precondition failed because the pod
   * was deleted and a namesake created). Either way, the pod that was asked for has left.
   */
  GONE
}
