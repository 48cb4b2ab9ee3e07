package dev.farrier.model;

import java.util.List;
import java.util.Map;

/**
 * What a new NodeClaim must be: the planner's output and the launch workflow's input.
 *
 * @param name                  the NodeClaim's name, deterministic for its batch ({@code <nodepool>-<suffix>})
 * @param instanceTypes         compatible instance types ranked cheapest first (at most 60)
 * @param requirements          the claim's requirements (NodePool's, narrowed by the pods': instance type, capacity
 *                              type, zone, arch)
 * @param requests              sum of the requests of the pods it is created for (plus DaemonSet overhead)
 * @param pods                  the pods it is created for (bookkeeping and the sandbox's timeline)
 * @param terminationGracePeriodSeconds the NodePool's {@code terminationGracePeriod}, null when unset
 * @param disruptionReason      for a replacement, the reason word of the disruption it replaces a node for
 *                              ({@code drifted}, ...); null for a provisioning batch's claim. Only labels metrics.
 */
public record NodeClaimRequest(
    String name,
    String nodePool,
    String nodeClassName,
    List<String> instanceTypes,
    List<Requirement> requirements,
    Resources requests,
    Map<String, String> labels,
    List<Taint> taints,
    List<Taint> startupTaints,
    String nodePoolHash,
    String expireAfter,
    Long terminationGracePeriodSeconds,
    List<PodRef> pods,
    String disruptionReason) {
  public NodeClaimRequest {
    instanceTypes = List.copyOf(instanceTypes);
    requirements = List.copyOf(requirements);
    labels = labels == null ? Map.of() : Map.copyOf(labels);
    taints = taints == null ? List.of() : List.copyOf(taints);
    startupTaints = startupTaints == null ? List.of() : List.copyOf(startupTaints);
    pods = pods == null ? List.of() : List.copyOf(pods);
  }

  /** A provisioning batch's claim (no disruption reason). */
  public NodeClaimRequest(String name, String nodePool, String nodeClassName, List<String> instanceTypes, List<Requirement> requirements,
      Resources requests, Map<String, String> labels, List<Taint> taints, List<Taint> startupTaints, String nodePoolHash,
      String expireAfter, Long terminationGracePeriodSeconds, List<PodRef> pods) {
    this(name, nodePool, nodeClassName, instanceTypes, requirements, requests, labels, taints, startupTaints, nodePoolHash, expireAfter,
        terminationGracePeriodSeconds, pods, null);
  }

  /** This claim as the replacement of a node disrupted for {@code reason}. */
  public NodeClaimRequest replacing(String reason) {
    return new NodeClaimRequest(name, nodePool, nodeClassName, instanceTypes, requirements, requests, labels, taints, startupTaints,
        nodePoolHash, expireAfter, terminationGracePeriodSeconds, pods, reason);
  }

  /** This claim, to be launched from {@code types} only. */
  public NodeClaimRequest withInstanceTypes(List<String> types) {
    return new NodeClaimRequest(name, nodePool, nodeClassName, types, requirements, requests, labels, taints, startupTaints,
        nodePoolHash, expireAfter, terminationGracePeriodSeconds, pods, disruptionReason);
  }

  /** This claim with {@code replaced} in place of its requirements. */
  public NodeClaimRequest withRequirements(List<Requirement> replaced) {
    return new NodeClaimRequest(name, nodePool, nodeClassName, instanceTypes, replaced, requests, labels, taints, startupTaints,
        nodePoolHash, expireAfter, terminationGracePeriodSeconds, pods, disruptionReason);
  }
}
