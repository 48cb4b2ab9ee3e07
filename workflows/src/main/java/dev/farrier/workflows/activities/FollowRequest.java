package dev.farrier.workflows.activities;

import java.util.List;

/**
 * Input of {@link RolloutActivities#awaitClosed}: the replacements ({@code disrupt/<nodeclaim>}) a rolling rollout
 * carried across continue-as-new, and how long to wait for one of them to close.
 */
public record FollowRequest(String cluster, List<String> nodeClaims, long waitSeconds) {
  public FollowRequest {
    nodeClaims = nodeClaims == null ? List.of() : List.copyOf(nodeClaims);
  }
}
