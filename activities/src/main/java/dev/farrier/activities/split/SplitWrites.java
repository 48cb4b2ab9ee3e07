package dev.farrier.activities.split;

import io.fabric8.kubernetes.api.model.Pod;

/**
 * What the split writes to a pod. Every call is one bounded request, never retried inside: the next pass decides again
 * from what the cache then shows. (Events go through {@link dev.farrier.activities.kube.EventSink}.)
 */
public interface SplitWrites {
  /**
   * Removes {@value dev.farrier.planner.CapacitySplit#GATE} from the pod's scheduling gates and, when {@code pin},
   * adds {@code karpenter.sh/capacity-type: on-demand} to its nodeSelector, in one patch with the pod's
   * resourceVersion as precondition (the API server accepts a nodeSelector addition only while the pod is gated).
   * Returns false when the pod changed or left since it was read (409 or 404): the next pass sees it anew.
   */
  boolean ungate(Pod pod, boolean pin);
}
