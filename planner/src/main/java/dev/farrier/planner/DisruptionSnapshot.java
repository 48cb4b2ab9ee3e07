package dev.farrier.planner;

import java.util.List;

/**
 * Everything the disruption planner reads, gathered by the planning activity.
 *
 * @param nowMillis      the activity's clock, so the planner itself reads none
 * @param resolvedImages per (node class, arch), the images the node class resolves to now
 * @param frozen         the change freezes in force (NodePool, or {@code *} for the cluster, to the description)
 * @param consolidation  the cluster as the scheduler sees it, for consolidating underutilized nodes; null when no
 *                       NodePool does
 * @param nodeRepair     node repair is on (Karpenter's feature gate NodeRepair, off by default): {@link Repair}
 */
public record DisruptionSnapshot(
    long nowMillis, List<NodePoolView> nodePools, List<NodeClaimView> nodeClaims, List<ResolvedImages> resolvedImages,
    java.util.Map<String, String> frozen, ConsolidationView consolidation, boolean nodeRepair) {
  public DisruptionSnapshot(long nowMillis, List<NodePoolView> nodePools, List<NodeClaimView> nodeClaims,
      List<ResolvedImages> resolvedImages) {
    this(nowMillis, nodePools, nodeClaims, resolvedImages, null, null, false);
  }

  /** Without what consolidating underutilized nodes needs, node repair off (as by default). */
  public DisruptionSnapshot(long nowMillis, List<NodePoolView> nodePools, List<NodeClaimView> nodeClaims,
      List<ResolvedImages> resolvedImages, java.util.Map<String, String> frozen) {
    this(nowMillis, nodePools, nodeClaims, resolvedImages, frozen, null, false);
  }

  /** Node repair off, as by default. */
  public DisruptionSnapshot(long nowMillis, List<NodePoolView> nodePools, List<NodeClaimView> nodeClaims,
      List<ResolvedImages> resolvedImages, java.util.Map<String, String> frozen, ConsolidationView consolidation) {
    this(nowMillis, nodePools, nodeClaims, resolvedImages, frozen, consolidation, false);
  }

  /** Without what consolidating underutilized nodes needs. */
  public DisruptionSnapshot(long nowMillis, List<NodePoolView> nodePools, List<NodeClaimView> nodeClaims,
      List<ResolvedImages> resolvedImages, java.util.Map<String, String> frozen, boolean nodeRepair) {
    this(nowMillis, nodePools, nodeClaims, resolvedImages, frozen, null, nodeRepair);
  }

  public DisruptionSnapshot {
    frozen = frozen == null ? java.util.Map.of() : java.util.Map.copyOf(frozen);
    nodePools = List.copyOf(nodePools);
    nodeClaims = List.copyOf(nodeClaims);
    resolvedImages = resolvedImages == null ? List.of() : List.copyOf(resolvedImages);
  }
}
