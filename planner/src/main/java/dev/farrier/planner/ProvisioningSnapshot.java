package dev.farrier.planner;

import java.util.List;
import java.util.Map;

/**
 * Everything the provisioning planner reads, gathered by the planning activity.
 *
 * @param pendingPods              the pods to find homes for
 * @param nodePools                every NodePool (any order; the planner orders by weight, then name)
 * @param instanceTypesByNodePool  per NodePool name, the instance types its node class allows (the activity
 *                                 already applied the EC2NodeClass); a missing entry means none
 * @param daemonSetPods            one pod template per DaemonSet; each one compatible with a NodePool (taints and
 *                                 requirements) adds its requests to every claim of that pool
 * @param existingNodes            every Node and every in-flight NodeClaim without a Node yet: pending pods go to
 *                                 those with room before any new claim is opened, and their pods count for topology
 *                                 spread and pod (anti-)affinity
 * @param kubeletByNodePool        per NodePool name, its EC2NodeClass's kubelet settings; a missing entry means
 *                                 {@link KubeletSettings#DEFAULTS}
 */
public record ProvisioningSnapshot(
    List<PodSpecView> pendingPods,
    List<NodePoolView> nodePools,
    Map<String, List<InstanceTypeView>> instanceTypesByNodePool,
    List<PodSpecView> daemonSetPods,
    List<ExistingNodeView> existingNodes,
    Map<String, KubeletSettings> kubeletByNodePool) {
  public ProvisioningSnapshot {
    pendingPods = List.copyOf(pendingPods);
    nodePools = List.copyOf(nodePools);
    instanceTypesByNodePool = instanceTypesByNodePool == null ? Map.of() : Map.copyOf(instanceTypesByNodePool);
    daemonSetPods = daemonSetPods == null ? List.of() : List.copyOf(daemonSetPods);
    existingNodes = existingNodes == null ? List.of() : List.copyOf(existingNodes);
    kubeletByNodePool = kubeletByNodePool == null ? Map.of() : Map.copyOf(kubeletByNodePool);
  }

  /** A snapshot with no existing capacity and default kubelet settings. */
  public ProvisioningSnapshot(List<PodSpecView> pendingPods, List<NodePoolView> nodePools,
      Map<String, List<InstanceTypeView>> instanceTypesByNodePool, List<PodSpecView> daemonSetPods) {
    this(pendingPods, nodePools, instanceTypesByNodePool, daemonSetPods, List.of(), Map.of());
  }

  KubeletSettings kubelet(String nodePool) {
    return kubeletByNodePool.getOrDefault(nodePool, KubeletSettings.DEFAULTS);
  }
}
