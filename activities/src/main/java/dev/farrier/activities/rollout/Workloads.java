package dev.farrier.activities.rollout;

import dev.farrier.activities.views.PodViews;
import dev.farrier.model.WorkloadRef;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** The workloads (pods' controllers) a rollout's gates watch. */
final class Workloads {
  private Workloads() {}

  /** The pod's controller (its owner reference marked controller); empty for a pod without one. */
  static Optional<WorkloadRef> of(Pod pod) {
    List<OwnerReference> owners = pod.getMetadata().getOwnerReferences();
    return owners == null ? Optional.empty() : owners.stream().filter(o -> Boolean.TRUE.equals(o.getController())).findFirst()
        .map(o -> new WorkloadRef(pod.getMetadata().getNamespace(), o.getKind(), o.getName()));
  }

  /**
   * What a drain moves off a node, given its pods: the controllers of those not finished, DaemonSets left out (their
   * pods stay with the node), each once, in a stable order.
   */
  static List<WorkloadRef> moved(Collection<Pod> podsOnNodes) {
    return podsOnNodes.stream().filter(p -> !PodViews.terminal(p))
        .map(Workloads::of).flatMap(Optional::stream)
        .filter(w -> !"DaemonSet".equals(w.kind()))
        .distinct().sorted(Comparator.comparing(WorkloadRef::toString)).toList();
  }
}
