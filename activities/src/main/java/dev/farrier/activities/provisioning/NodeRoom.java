package dev.farrier.activities.provisioning;

import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.ExistingNodeView;
import dev.farrier.planner.PodSpecView;
import dev.farrier.planner.Tolerations;
import java.util.ArrayList;
import java.util.List;

/**
 * What a registered node still has for the pods promised to it, as the kube-scheduler would judge them: none when it
 * no longer accepts pods (cordoned, being deleted or disrupted since the plan); else its free requests (allocatable
 * less its bound pods' requests), its taints (one added since the plan keeps off a pod that does not tolerate it), and
 * the pods bound there, whose required hostname anti-affinity, or the promised pod's, keeps the two apart however much
 * room is left. Each pod it takes uses its room and counts as on the node for the next.
 */
final class NodeRoom {
  private Resources free;
  private final List<Taint> taints;
  private final List<PodSpecView> pods;

  private NodeRoom(Resources free, List<Taint> taints, List<PodSpecView> pods) {
    this.free = free;
    this.taints = taints;
    this.pods = new ArrayList<>(pods);
  }

  /** The room the kube-scheduler sees on {@code node}. */
  static NodeRoom of(ExistingNodeView node) {
    return node.acceptsPods() ? new NodeRoom(node.allocatable().minus(node.boundRequests()), node.taints(), node.pods()) : none();
  }

  /** A node with no room at all: takes no pod. */
  static NodeRoom none() {
    return new NodeRoom(Resources.ZERO, List.of(), List.of());
  }

  /** Whether {@code pod} may still go on the node; if it may, it is counted there from now on. */
  boolean take(PodSpecView pod) {
    Resources requests = pod.requestsAsOnePod();
    if (!requests.fitsIn(free) || !Tolerations.toleratesAll(taints, pod.tolerations())
        || pods.stream().anyMatch(bound -> repels(bound, pod) || repels(pod, bound))) {
      return false;
    }
    free = free.minus(requests);
    pods.add(pod);
    return true;
  }

  /** Whether {@code owner} has a required hostname anti-affinity term selecting {@code other}. */
  private static boolean repels(PodSpecView owner, PodSpecView other) {
    return owner.podAffinity().stream().anyMatch(term -> term.anti() && term.required()
        && WellKnown.HOSTNAME_LABEL.equals(term.topologyKey())
        && term.selects(owner.pod().namespace(), other.pod().namespace(), other.labels()));
  }
}
