package dev.farrier.workflows.reconciler;

import static dev.farrier.workflows.reconciler.ReconcilerRun.LOG;

import dev.farrier.model.DisruptionPlan;
import dev.farrier.workflows.ChildWorkflowStarts;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.provisioning.ProvisioningInput;
import dev.farrier.workflows.provisioning.ProvisioningResult;
import dev.farrier.workflows.provisioning.ProvisioningWorkflow;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.List;

/**
 * The static NodePools' scale-up (Karpenter's {@code static/provisioning}): when a round's plan names static NodePools
 * below their {@code replicas} ({@link DisruptionPlan#staticShort()}), a {@code provision/<cluster>/static} child
 * plans claims from their templates and launches them. One runs at a time, whoever started it (its id is the guarantee,
 * across continue-as-new): while it runs, its claims are counted once they exist, and the next round after it closes
 * counts them all.
 */
final class StaticScaleUp {
  private final ReconcilerRun reconciler;

  StaticScaleUp(ReconcilerRun reconciler) {
    this.reconciler = reconciler;
  }

  void startIfShort(DisruptionPlan plan) {
    if (plan == null || plan.staticShort().isEmpty()) {
      return;
    }
    String cluster = reconciler.cluster;
    String id = WorkflowIds.staticProvisioning(cluster);
    ProvisioningWorkflow child = Workflow.newChildWorkflowStub(ProvisioningWorkflow.class,
        ChildWorkflowStarts.staticProvisioning(cluster));
    Promise<ProvisioningResult> result = Async.function(child::provision,
        new ProvisioningInput(cluster, id, List.of(), reconciler.settings.launchSettings(), true));
    try {
      Workflow.getWorkflowExecution(child).get();
    } catch (ChildWorkflowFailure failure) {
      if (!ChildWorkflowStarts.alreadyStarted(failure)) {
        StructuredLog.warn(LOG, "could not start the static nodepools' scale-up", "cluster", cluster,
            "error", Failures.reason(failure));
      }
      return;
    }
    StructuredLog.info(LOG, "static nodepools' scale-up started", "cluster", cluster, "nodepools", plan.staticShort(),
        "workflow", id);
    result.handle((done, failure) -> {
      if (failure != null) {
        StructuredLog.warn(LOG, "static nodepools' scale-up failed", "workflow", id, "error", Failures.reason(failure));
      }
      return null;
    });
  }
}
