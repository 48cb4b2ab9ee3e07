package dev.farrier.workflows.upgrade;

import dev.farrier.workflows.activities.PreviewRolloutRequest;

/**
 * A running rollout's answer to {@link NodePoolUpgradeWorkflow#remaining}: what it has left, as the preview workflow's
 * input, or why there is nothing to preview. A refusal is an answer, not a failed query: the query only reads.
 *
 * @param preview the preview workflow's input; null when refused
 * @param refused why nothing is left to preview (rolling back, stopping, not started); null when {@code preview} is set
 */
public record RolloutRemaining(PreviewRolloutRequest preview, String refused) {}
