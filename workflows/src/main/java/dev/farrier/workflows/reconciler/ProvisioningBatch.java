package dev.farrier.workflows.reconciler;

import static dev.farrier.workflows.reconciler.ReconcilerRun.LOG;

import dev.farrier.model.PodRef;
import dev.farrier.model.ReconcilerSettings;
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
 * A turn's provisioning step: the due batch of queued pods goes out as a {@link ProvisioningWorkflow} child,
 * {@code provision/<cluster>/<n>}, and its pods stay in flight (out of new batches) until the child closes.
 */
final class ProvisioningBatch {
  /**
   * Pods per provisioning batch. A batch's pod list travels to the planning activity and its plan comes back through
   * Temporal, whose payloads must stay under 2 MB: 10,000 pods made a 1.3 MB list and, when none could be placed, a
   * 4 MB plan; 1,000 keep both near a tenth of that. More pending pods go out as several batches back to back.
   */
  static final int MAX_BATCH_PODS = 1_000;

  private final ReconcilerRun reconciler;

  ProvisioningBatch(ReconcilerRun reconciler) {
    this.reconciler = reconciler;
  }

  void start() {
    String cluster = reconciler.cluster;
    ReconcilerSettings settings = reconciler.settings;
    PodBatcher batcher = reconciler.batcher;
    long batch = reconciler.nextBatch++;
    String batchId = WorkflowIds.provisioning(cluster, batch);
    List<PodRef> pods = batcher.dispatch(batchId, MAX_BATCH_PODS);
    ProvisioningWorkflow child = Workflow.newChildWorkflowStub(ProvisioningWorkflow.class,
        ChildWorkflowStarts.provisioning(cluster, batch));
    Promise<ProvisioningResult> result = Async.function(child::provision,
        new ProvisioningInput(cluster, batchId, pods, settings.launchSettings()));
    try {
      Workflow.getWorkflowExecution(child).get();
    } catch (ChildWorkflowFailure failure) {
      if (ChildWorkflowStarts.alreadyStarted(failure)) {
        // A batch number is used once, ever (claim names derive from it): skip it and start the pods as the next.
        StructuredLog.warn(LOG, "batch id already used, retrying as the next batch", "batch", batchId);
        batcher.requeue(batchId, pods, Workflow.currentTimeMillis());
      } else {
        batcher.completed(batchId, Workflow.currentTimeMillis());
        StructuredLog.warn(LOG, "could not start provisioning batch", "batch", batchId,
            "pods", pods.size(), "error", Failures.reason(failure));
      }
      return;
    }
    StructuredLog.info(LOG, "provisioning batch started", "cluster", cluster, "batch", batchId, "pods", pods.size());
    result.handle((done, failure) -> {
      batcher.completed(batchId, Workflow.currentTimeMillis());
      if (failure != null) {
        StructuredLog.warn(LOG, "provisioning batch failed", "batch", batchId, "error", Failures.reason(failure));
      }
      return null;
    });
  }
}
