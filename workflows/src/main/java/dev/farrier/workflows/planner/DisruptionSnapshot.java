package dev.farrier.workflows.planner;

import java.util.List;

/**
 * Everything the disruption planner reads, gathered by the planning activity.
 *
 * @param nowMillis      the activity's clock, so the planner itself reads none
 * @param resolvedImages per (node class, arch), the images the node class resolves to now
 */
public record DisruptionSnapshot(
    long nowMillis, List<NodePoolView> nodePools, List<NodeClaimView> nodeClaims, List<ResolvedImages> resolvedImages) {
  public DisruptionSnapshot {
    nodePools = List.copyOf(nodePools);
    nodeClaims = List.copyOf(nodeClaims);
    resolvedImages = resolvedImages == null ? List.of() : List.copyOf(resolvedImages);
  }
}
