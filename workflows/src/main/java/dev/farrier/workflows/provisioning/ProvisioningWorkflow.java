package dev.farrier.workflows.provisioning;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** {@code provision/<cluster>/<batch>}: plan NodeClaims for a batch of pending pods and launch them in parallel. */
@WorkflowInterface
public interface ProvisioningWorkflow {
  /**
   * The signal a batch sends its cluster's reconciler when it closes, with its batch id: a reconciler that continued
   * as new while the batch ran knows it only as carried, and would keep its pods out of new batches until the carry's
   * release time (registration and initialization timeouts) instead.
   */
  String BATCH_CLOSED_SIGNAL = "batchClosed";

  /**
   * The signal a batch sends its cluster's reconciler each time some of its launches close while others still run, with
   * their planned pods ({@link LaunchesClosed}): a pod the kube-scheduler left unbound there (it filled the node with
   * other pods) goes into a new batch now, not once the batch's slowest launch is done.
   */
  String LAUNCHES_CLOSED_SIGNAL = "launchesClosed";

  @WorkflowMethod
  ProvisioningResult provision(ProvisioningInput input);
}
