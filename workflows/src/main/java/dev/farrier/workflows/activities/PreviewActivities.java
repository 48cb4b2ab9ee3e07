package dev.farrier.workflows.activities;

import dev.farrier.model.RolloutPreview;
import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** What a rollout would do, read from the cluster, the cloud and Temporal: {@code farrier upgrade --dry-run}. */
@ActivityInterface
public interface PreviewActivities {
  /**
   * The rollout's nodes in the batches its own planner would give them, what will hold their drains, their images
   * before and after, and the estimate from the NodePools' closed replacements. Resolves the target as the rollout's
   * {@code claim} does, and refuses what it refuses ({@code InvalidUpgrade}); writes nothing.
   */
  @ActivityMethod
  RolloutPreview previewRollout(PreviewRolloutRequest request);
}
