package dev.farrier.workflows.types;

import dev.farrier.workflows.TaskQueues;
import dev.farrier.workflows.activities.InterruptionActivities;
import dev.farrier.workflows.activities.NodeActivities;
import dev.farrier.workflows.activities.NodeClaimActivities;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.workflows.activities.PreviewActivities;
import dev.farrier.workflows.activities.RolloutActivities;
import dev.farrier.workflows.upgrade.NodePoolUpgradeWorkflowImpl;
import dev.farrier.workflows.upgrade.RolloutPreviewWorkflowImpl;
import dev.farrier.workflows.interruption.InterruptionWorkflowImpl;
import dev.farrier.workflows.provisioning.NodeLaunchWorkflowImpl;
import dev.farrier.workflows.provisioning.ProvisioningWorkflowImpl;
import dev.farrier.workflows.reconciler.ClusterReconcilerWorkflowImpl;
import dev.farrier.workflows.replacement.NodeReplacementWorkflowImpl;
import java.util.List;

/**
 * What a worker registers on {@link TaskQueues#DEFAULT}: every workflow implementation below, and one
 * implementation of each activity interface.
 *
 * <pre>{@code
 * worker.registerWorkflowImplementationTypes(FarrierWorkflows.implementationTypes());
 * worker.registerActivitiesImplementations(nodeClaimActivities, nodeActivities, planningActivities);
 * }</pre>
 */
public final class FarrierWorkflows {
  private FarrierWorkflows() {}

  public static final List<Class<?>> IMPLEMENTATIONS = List.of(
      ClusterReconcilerWorkflowImpl.class,
      ProvisioningWorkflowImpl.class,
      NodeLaunchWorkflowImpl.class,
      NodeReplacementWorkflowImpl.class,
      InterruptionWorkflowImpl.class,
      NodePoolUpgradeWorkflowImpl.class,
      RolloutPreviewWorkflowImpl.class);

  public static final List<Class<?>> ACTIVITY_INTERFACES = List.of(
      NodeClaimActivities.class,
      NodeActivities.class,
      PlanningActivities.class,
      InterruptionActivities.class,
      RolloutActivities.class,
      PreviewActivities.class);

  public static Class<?>[] implementationTypes() {
    return IMPLEMENTATIONS.toArray(Class<?>[]::new);
  }
}
