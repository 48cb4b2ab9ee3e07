package dev.farrier.workflows.upgrade;

import dev.farrier.model.RolloutPreview;
import dev.farrier.workflows.ActivityStubs;
import dev.farrier.workflows.activities.PreviewRolloutRequest;

/** The preview's one step: the activity answers, the workflow hands the answer back. */
public class RolloutPreviewWorkflowImpl implements RolloutPreviewWorkflow {
  @Override
  public RolloutPreview preview(PreviewRolloutRequest request) {
    return ActivityStubs.preview().previewRollout(request);
  }
}
