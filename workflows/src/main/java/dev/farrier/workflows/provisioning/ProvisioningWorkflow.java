package dev.farrier.workflows.provisioning;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** {@code provision/<cluster>/<batch>}: plan NodeClaims for a batch of pending pods and launch them in parallel. */
@WorkflowInterface
public interface ProvisioningWorkflow {
  @WorkflowMethod
  ProvisioningResult provision(ProvisioningInput input);
}
