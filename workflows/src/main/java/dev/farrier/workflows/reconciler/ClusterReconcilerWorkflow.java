package dev.farrier.workflows.reconciler;

import dev.farrier.model.Freeze;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.workflows.provisioning.LaunchesClosed;
import dev.farrier.workflows.provisioning.ProvisioningWorkflow;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * {@code reconciler/<cluster>}: the long-running entity of a cluster. Batches pending-pod signals into
 * provisioning children; every disruption interval asks the planner for commands and starts a replacement child
 * per command; continues as new when the server suggests it.
 */
@WorkflowInterface
public interface ClusterReconcilerWorkflow {
  @WorkflowMethod
  void run(ReconcilerInput input);

  @SignalMethod
  void podsPending(PendingPods pods);

  /**
   * A provisioning batch closed ({@link ProvisioningWorkflow#BATCH_CLOSED_SIGNAL}, sent by the batch): its pods may go
   * into new batches again. Also the way a batch started by an earlier run, and carried, is known to be done.
   */
  @SignalMethod(name = ProvisioningWorkflow.BATCH_CLOSED_SIGNAL)
  void batchClosed(String batchId);

  /**
   * Some launches of a provisioning batch in flight closed ({@link ProvisioningWorkflow#LAUNCHES_CLOSED_SIGNAL}): their
   * pods leave the batch, and those signalled pending again while it ran are queued at once.
   */
  @SignalMethod(name = ProvisioningWorkflow.LAUNCHES_CLOSED_SIGNAL)
  void launchesClosed(LaunchesClosed closed);

  /**
   * A replacement of this NodeClaim closed ({@link NodeReplacementWorkflow#REPLACEMENT_CLOSED_SIGNAL}, sent by the
   * replacement): its budget slot is free. The run that started it learns that from the child's result; the signal is
   * how a later run, or one that did not start it, learns it.
   */
  @SignalMethod(name = NodeReplacementWorkflow.REPLACEMENT_CLOSED_SIGNAL)
  void replacementClosed(String nodeClaim);

  /**
   * New timing from a worker's configuration. It applies from the next turn and is carried across continue-as-new;
   * replacements already running keep the settings they started with.
   */
  @SignalMethod
  void updateSettings(ReconcilerSettings settings);

  String FREEZE = "Freeze";
  String UNFREEZE = "Unfreeze";

  /**
   * A change freeze ({@link Freeze}), cluster-wide or for one NodePool: no voluntary disruption and no fleet upgrade
   * batch starts until {@code Unfreeze}. A reason is required.
   */
  @UpdateMethod(name = FREEZE)
  String freeze(FreezeRequest request);

  @UpdateValidatorMethod(updateName = FREEZE)
  void validateFreeze(FreezeRequest request);

  /** Lifts the freeze of the same scope (cluster-wide, or the NodePool). */
  @UpdateMethod(name = UNFREEZE)
  String unfreeze(FreezeRequest request);

  @UpdateValidatorMethod(updateName = UNFREEZE)
  void validateUnfreeze(FreezeRequest request);

  String PREVIEW_PLAN = "PreviewPlan";

  /**
   * Plans disruption now as the next round would (the freezes in force, node repair as configured) without executing or
   * writing anything, and answers with every NodeClaim's decision and its reason: what {@code farrier plan} shows. The
   * rounds themselves keep only their commands, so the reconciler's history does not grow with the fleet.
   */
  @UpdateMethod(name = PREVIEW_PLAN)
  dev.farrier.model.DisruptionPlan previewPlan();

  @UpdateValidatorMethod(updateName = PREVIEW_PLAN)
  void validatePreviewPlan();

  @QueryMethod
  ReconcilerStatus status();
}
