package dev.farrier.planner;

import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A node that exists, or a NodeClaim still being launched, as the provisioning planner sees it: capacity pending pods
 * may use before any new claim is opened, and pods that topology spread and pod (anti-)affinity count.
 *
 * @param name          the Node's name; for an in-flight claim without a Node, the NodeClaim's name (which then
 *                      stands in for {@code kubernetes.io/hostname})
 * @param nodePool      label {@code karpenter.sh/nodepool}, null for a node no NodePool made (it still takes pods)
 * @param labels        the Node's labels; for an in-flight claim, its template labels plus each requirement that pins
 *                      one value (zone, instance type, capacity type once launched)
 * @param taints        the Node's (or the claim's) taints; startup taints and the {@code karpenter.sh/unregistered}
 *                      and {@code node.kubernetes.io/not-ready} taints are ignored while {@code initialized} is false
 * @param allocatable   {@code status.allocatable} of the Node or NodeClaim; for a claim without a Node, the
 *                      allocatable of the instance type it launched as, or before launch of the smallest type it lists
 * @param pods          the non-terminal pods bound to it (their requests use capacity; their labels count for
 *                      topology spread and pod affinity)
 * @param promised      what a claim was planned to hold ({@code spec.resources.requests}: the requests of every pod
 *                      planned onto it and of its DaemonSets), while those pods may not all be bound yet (in flight,
 *                      or initialized only moments ago); zero otherwise. The node counts as using the larger of this
 *                      and its bound pods' requests, per resource, so pods planned onto it but not bound yet keep
 *                      their room
 * @param initialized   the claim is Initialized (or the node has no claim): false means in flight
 * @param acceptsPods   false when cordoned, being deleted or disrupted: its pods still count for topology, but
 *                      nothing new lands on it
 * @param nominated     pods a claim was planned for (an earlier batch's) that are not bound anywhere yet while the claim
 *                      holds room for them: they count for topology spread, pod (anti-)affinity and host ports where
 *                      the claim is, as they will once bound; their requests are in {@code promised}, not counted again
 * @param volumeLimits  per CSI driver, how many volumes of it the node attaches at most (its {@code CSINode}'s
 *                      {@code spec.drivers[].allocatable.count}); a driver not listed has no limit, and neither has an
 *                      in-flight claim (no CSINode yet), as in Karpenter
 */
public record ExistingNodeView(
    String name,
    String nodePool,
    Map<String, String> labels,
    List<Taint> taints,
    Resources allocatable,
    List<PodSpecView> pods,
    Resources promised,
    boolean initialized,
    boolean acceptsPods,
    List<PodSpecView> nominated,
    Map<String, Integer> volumeLimits) {
  public ExistingNodeView {
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    taints = taints == null ? List.of() : List.copyOf(taints);
    allocatable = allocatable == null ? Resources.ZERO : allocatable;
    pods = pods == null ? List.of() : List.copyOf(pods);
    promised = promised == null ? Resources.ZERO : promised;
    nominated = nominated == null ? List.of() : List.copyOf(nominated);
    volumeLimits = volumeLimits == null ? Map.of() : Map.copyOf(volumeLimits);
  }

  /** A node or claim with no pod nominated to it and no volume limit. */
  public ExistingNodeView(String name, String nodePool, Map<String, String> labels, List<Taint> taints, Resources allocatable,
      List<PodSpecView> pods, Resources promised, boolean initialized, boolean acceptsPods) {
    this(name, nodePool, labels, taints, allocatable, pods, promised, initialized, acceptsPods, List.of(), Map.of());
  }

  /**
   * As if {@code placed} were bound to it too: they use room on top of what it uses now, the larger of its bound pods'
   * and its promised requests.
   */
  public ExistingNodeView withPlaced(List<PodSpecView> placed) {
    List<PodSpecView> all = new ArrayList<>(pods);
    all.addAll(placed);
    Resources more = Resources.ZERO;
    for (PodSpecView p : placed) {
      more = more.plus(p.requestsAsOnePod());
    }
    return new ExistingNodeView(name, nodePool, labels, taints, allocatable, all, promised.plus(more), initialized, acceptsPods,
        nominated, volumeLimits);
  }

  /** The requests of its bound pods, each counted as one pod: what the kube-scheduler sees used. */
  public Resources boundRequests() {
    Resources bound = Resources.ZERO;
    for (PodSpecView p : pods) {
      bound = bound.plus(p.requestsAsOnePod());
    }
    return bound;
  }
}
