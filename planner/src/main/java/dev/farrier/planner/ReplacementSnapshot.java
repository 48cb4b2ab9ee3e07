package dev.farrier.planner;

import dev.farrier.model.Resources;
import java.util.List;

/**
 * Everything the provisioning planner reads to size the replacement of one node.
 *
 * @param nodeClaim        the NodeClaim being replaced (for the description)
 * @param replacementName  the replacement NodeClaim's name (from the request, deterministic per disruption)
 * @param podsOnNode       every non-terminal pod bound to the node; DaemonSet and mirror pods are skipped here
 * @param nodePool         the node's NodePool; the replacement comes from it alone
 * @param instanceTypes    the instance types its node class allows
 * @param daemonSetPods    one pod template per DaemonSet (their overhead is added to the replacement)
 * @param replacedCapacity the capacity of the node being replaced: taken off the NodePool's usage for the limit
 *                         check, since it leaves once its replacement is up (otherwise a pool at its limit could
 *                         never be rolled)
 * @param kubelet          the node class's kubelet settings ({@link KubeletSettings#DEFAULTS} when null)
 * @param zone             the zone of the node being replaced (of every node, for a multi-node group), or null: when
 *                         one of its pods spreads over zones, the replacement is pinned to it
 *                         ({@link ProvisioningPlanner#planReplacement})
 * @param poolNodes        the NodePool's NodeClaims now, the replaced one included, or null when not counted: a static
 *                         NodePool's replacement is launched only while this is under its {@code limits.nodes}
 */
public record ReplacementSnapshot(
    String nodeClaim,
    String replacementName,
    List<PodSpecView> podsOnNode,
    NodePoolView nodePool,
    List<InstanceTypeView> instanceTypes,
    List<PodSpecView> daemonSetPods,
    Resources replacedCapacity,
    KubeletSettings kubelet,
    String zone,
    Integer poolNodes) {
  /** A snapshot without the NodePool's node count. */
  public ReplacementSnapshot(String nodeClaim, String replacementName, List<PodSpecView> podsOnNode, NodePoolView nodePool,
      List<InstanceTypeView> instanceTypes, List<PodSpecView> daemonSetPods, Resources replacedCapacity, KubeletSettings kubelet,
      String zone) {
    this(nodeClaim, replacementName, podsOnNode, nodePool, instanceTypes, daemonSetPods, replacedCapacity, kubelet, zone, null);
  }

  public ReplacementSnapshot {
    podsOnNode = List.copyOf(podsOnNode);
    instanceTypes = instanceTypes == null ? List.of() : List.copyOf(instanceTypes);
    daemonSetPods = daemonSetPods == null ? List.of() : List.copyOf(daemonSetPods);
    replacedCapacity = replacedCapacity == null ? Resources.ZERO : replacedCapacity;
    kubelet = kubelet == null ? KubeletSettings.DEFAULTS : kubelet;
  }

  /** A snapshot with the default kubelet settings, of a node whose zone is not known. */
  public ReplacementSnapshot(String nodeClaim, String replacementName, List<PodSpecView> podsOnNode, NodePoolView nodePool,
      List<InstanceTypeView> instanceTypes, List<PodSpecView> daemonSetPods, Resources replacedCapacity) {
    this(nodeClaim, replacementName, podsOnNode, nodePool, instanceTypes, daemonSetPods, replacedCapacity, KubeletSettings.DEFAULTS, null);
  }

  /** A snapshot of a node whose zone is not known. */
  public ReplacementSnapshot(String nodeClaim, String replacementName, List<PodSpecView> podsOnNode, NodePoolView nodePool,
      List<InstanceTypeView> instanceTypes, List<PodSpecView> daemonSetPods, Resources replacedCapacity, KubeletSettings kubelet) {
    this(nodeClaim, replacementName, podsOnNode, nodePool, instanceTypes, daemonSetPods, replacedCapacity, kubelet, null);
  }

  /** The one zone of all of {@code zones}, or null when they are not all the same known zone. */
  public static String commonZone(List<String> zones) {
    String first = zones.isEmpty() ? null : zones.getFirst();
    return first != null && zones.stream().allMatch(first::equals) ? first : null;
  }
}
