package dev.farrier.workflows.activities;

import java.util.List;

/**
 * Input of {@link RolloutActivities#offTarget}: the rollout's NodePools and the images its target resolved to (every
 * architecture's).
 */
public record TargetCheckRequest(String cluster, List<String> nodePools, List<String> targetImages) {
  public TargetCheckRequest {
    nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
    targetImages = targetImages == null ? List.of() : List.copyOf(targetImages);
  }
}
