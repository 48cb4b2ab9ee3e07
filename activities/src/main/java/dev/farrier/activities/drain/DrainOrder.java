package dev.farrier.activities.drain;

import dev.farrier.workflows.activities.DrainGroup;
import dev.farrier.workflows.activities.DrainRequest;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * In which order a drain empties the node, as Karpenter v1's terminator does: the pods that must leave
 * ({@link DrainRules#mustLeave}) fall into {@link DrainGroup}s, and a voluntary pass works only on the first group with
 * pods left. Its held pods (PDB, do-not-disrupt, no controller) and its pods still terminating hold every later group
 * back until they are gone, so critical pods (DNS, CNI agents) serve the node's other pods to the end. A forced pass
 * (terminationGracePeriod expired, force-drain) and a pass over a gone instance take every group at once, as
 * Karpenter's past-deadline deletions skip the order. Pure: the pass acts on its answer.
 */
final class DrainOrder {
  private static final Set<String> CRITICAL_PRIORITY_CLASSES = Set.of("system-cluster-critical", "system-node-critical");

  private DrainOrder() {}

  /**
   * What one pass does now and what it leaves for later.
   *
   * @param group    the first group with pods left (null when none is left)
   * @param now      the pods the pass decides on, earlier groups first
   * @param deferred the pods of later groups, left until {@code group} is gone
   */
  record Pass(DrainGroup group, List<Pod> now, List<Pod> deferred) {}

  static Pass pass(List<Pod> onNode, DrainRequest request) {
    List<Pod> ordered = DrainRules.mustLeave(onNode, request).stream()
        .sorted(Comparator.comparing(DrainOrder::groupOf)).toList();
    if (ordered.isEmpty()) {
      return new Pass(null, List.of(), List.of());
    }
    DrainGroup first = groupOf(ordered.getFirst());
    if (request.bypassPdb() || request.instanceGone()) {
      return new Pass(first, ordered, List.of());
    }
    return new Pass(first, ordered.stream().filter(p -> groupOf(p) == first).toList(),
        ordered.stream().filter(p -> groupOf(p) != first).toList());
  }

  /** Critical by priorityClassName alone (not by priority value), as Karpenter decides it. */
  static DrainGroup groupOf(Pod pod) {
    String priorityClass = pod.getSpec() == null ? null : pod.getSpec().getPriorityClassName();
    boolean critical = priorityClass != null && CRITICAL_PRIORITY_CLASSES.contains(priorityClass);
    boolean daemon = DrainRules.ownedByDaemonSet(pod);
    if (critical) {
      return daemon ? DrainGroup.CRITICAL_DAEMONSET : DrainGroup.CRITICAL;
    }
    return daemon ? DrainGroup.NON_CRITICAL_DAEMONSET : DrainGroup.NON_CRITICAL;
  }
}
