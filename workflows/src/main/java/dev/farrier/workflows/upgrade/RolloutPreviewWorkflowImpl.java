package dev.farrier.workflows.upgrade;

import dev.farrier.model.RolloutPreview;
import dev.farrier.workflows.ActivityStubs;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.activities.PreviewRolloutRequest;
import io.temporal.failure.ApplicationFailure;

/**
 * The preview's one step: the input checked (as the rollout checks its own: a preview started from a UI or a script
 * gets the same refusal, at once), then the activity answers and the workflow hands the answer back.
 */
public class RolloutPreviewWorkflowImpl implements RolloutPreviewWorkflow {
  @Override
  public RolloutPreview preview(PreviewRolloutRequest request) {
    String problem = problem(request);
    if (problem != null) {
      throw ApplicationFailure.newNonRetryableFailure(problem, FailureTypes.INVALID_UPGRADE);
    }
    return ActivityStubs.preview().previewRollout(request);
  }

  /** What is wrong with the input, or null: what {@link UpgradeInput#problem} checks of the flags a preview carries. */
  static String problem(PreviewRolloutRequest request) {
    if (request == null || request.target() == null || request.target().workflowId() == null) {
      return "no rollout to preview";
    }
    try {
      BatchSize.parse(request.batchSize());
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    if (request.canary() < 1) {
      return "the canary is at least 1 node, not " + request.canary();
    }
    if (request.soakSeconds() < 0) {
      return "the soak time cannot be negative";
    }
    return null;
  }
}
