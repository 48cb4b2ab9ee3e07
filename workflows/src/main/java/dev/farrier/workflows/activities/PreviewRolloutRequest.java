package dev.farrier.workflows.activities;

import java.util.List;

/**
 * Input of {@link PreviewActivities#previewRollout}: the rollout as {@code farrier upgrade} would start it.
 *
 * @param target           the NodePools and target as the rollout's {@code claim} gets them; its {@code workflowId} is
 *                         the rollout's id
 * @param targetText       the target as the rollout's id and result name it
 * @param batchSize        {@code --batch-size} ({@code 2} or {@code 25%})
 * @param running          what a running rollout has done so far; null for one not started
 */
public record PreviewRolloutRequest(ClaimRolloutRequest target, String targetText, String batchSize, int canary,
    boolean rolling, long soakSeconds, boolean approvalRequired, RunningRollout running) {
  /**
   * A running rollout's progress, for the preview of what it has left.
   *
   * @param batches  batches (rolling: starts) done or started; past 0 the canary is done
   * @param total    the nodes it counted to replace at its canary
   * @param inFlight its replacements in flight now
   * @param phase    its phase now ({@code AwaitingApproval}: the next batch waits for an approval)
   */
  public record RunningRollout(int batches, int total, List<String> inFlight, String phase) {
    public RunningRollout {
      inFlight = inFlight == null ? List.of() : List.copyOf(inFlight);
    }
  }
}
