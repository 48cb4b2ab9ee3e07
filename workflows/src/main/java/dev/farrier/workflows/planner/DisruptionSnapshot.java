package dev.farrier.workflows.planner;

import java.util.List;

/**
 * Everything the disruption planner reads, gathered by the planning activity.
 *
 * @param nowMillis      the activity's clock, so the planner itself reads none
 * @param resolvedImages per (node class, arch), the images the node class resolves to now
 * @param frozen         the change freezes in force (NodePool, or {@code *} for the cluster, to the description)
 * @param nodeRepair     node repair is on (Karpenter's feature gate NodeRepair, off by default): {@link Repair}
 */
public record DisruptionSnapshot(
    long nowMillis, List<NodePoolView> nodePools, List<NodeClaimView> nodeClaims, List<ResolvedImages> resolvedImages,
    java.util.Map<String, String> frozen, boolean nodeRepair) {
  public DisruptionSnapshot(long nowMillis, List<NodePoolView> nodePools, List<NodeClaimView> nodeClaims,
      List<ResolvedImages> resolvedImages) {
    this(nowMillis, nodePools, nodeClaims, resolvedImages, null);
  }

  /** Node repair off, as by default. */
  public DisruptionSnapshot(long nowMillis, List<NodePoolView> nodePools, List<NodeClaimView> nodeClaims,
      List<ResolvedImages> resolvedImages, java.util.Map<String, String> frozen) {
    this(nowMillis, nodePools, nodeClaims, resolvedImages, frozen, false);
  }

  public DisruptionSnapshot {
    frozen = frozen == null ? java.util.Map.of() : java.util.Map.copyOf(frozen);
    nodePools = List.copyOf(nodePools);
    nodeClaims = List.copyOf(nodeClaims);
    resolvedImages = resolvedImages == null ? List.of() : List.copyOf(resolvedImages);
  }
}
