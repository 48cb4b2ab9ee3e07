package dev.farrier.workflows.upgrade;

import dev.farrier.model.RolloutPreview;
import dev.farrier.workflows.activities.PreviewRolloutRequest;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * {@code preview/<nodepools>/<target>}: what the rollout {@code upgrade/<nodepools>/<target>} would do, for
 * {@code farrier upgrade --dry-run}. One activity reads the cluster, the cloud and the replacement history; nothing is
 * taken, switched or replaced. A workflow rather than a call from the CLI: the CLI reaches Temporal only, and the
 * preview stays visible in the Temporal UI beside the rollout it previews.
 */
@WorkflowInterface
public interface RolloutPreviewWorkflow {
  @WorkflowMethod
  RolloutPreview preview(PreviewRolloutRequest request);
}
