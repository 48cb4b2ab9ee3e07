package dev.farrier.workflows.planner;

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
 */
public record ProvisioningSnapshot(
    List<PodSpecView> pendingPods,
    List<NodePoolView> nodePools,
    Map<String, List<InstanceTypeView>> instanceTypesByNodePool,
    List<PodSpecView> daemonSetPods) {
  public ProvisioningSnapshot {
    pendingPods = List.copyOf(pendingPods);
    nodePools = List.copyOf(nodePools);
    instanceTypesByNodePool = instanceTypesByNodePool == null ? Map.of() : Map.copyOf(instanceTypesByNodePool);
    daemonSetPods = daemonSetPods == null ? List.of() : List.copyOf(daemonSetPods);
  }
}
