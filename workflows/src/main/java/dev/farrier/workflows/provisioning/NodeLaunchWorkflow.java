package dev.farrier.workflows.provisioning;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * {@code launch/<nodeclaim>}: create the NodeClaim, launch its instance, wait until the node registers, register
 * it, wait until it is initialized. On any failure or timeout the saga terminates the instance and deletes the
 * claim before failing.
 */
@WorkflowInterface
public interface NodeLaunchWorkflow {
  @WorkflowMethod
  LaunchedNode launch(NodeLaunchInput input);

  /** Creating, Launching, Registering, Initializing, Initialized, RollingBack, Failed. */
  @QueryMethod
  String phase();
}
