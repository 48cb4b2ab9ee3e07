package dev.farrier.worker;

import dev.farrier.worker.config.WorkerSettings;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.PodRef;
import dev.farrier.workflows.reconciler.ClusterReconcilerWorkflow;
import dev.farrier.workflows.reconciler.PendingPods;
import dev.farrier.workflows.reconciler.ReconcilerInput;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * The worker's handle on {@code reconciler/<cluster>}. Every call starts the reconciler if it is not running
 * (conflict policy USE_EXISTING), so any number of workers share one reconciler per cluster.
 */
@Singleton
public class ReconcilerClient {
  private final WorkflowClient client;
  private final WorkerSettings settings;

  public ReconcilerClient(WorkflowClient client, WorkerSettings settings) {
    this.client = client;
    this.settings = settings;
  }

  public String workflowId() {
    return WorkflowIds.reconciler(settings.clusterName());
  }

  private ClusterReconcilerWorkflow stub() {
    return client.newWorkflowStub(ClusterReconcilerWorkflow.class, WorkflowOptions.newBuilder()
        .setWorkflowId(workflowId())
        .setTaskQueue(settings.taskQueue())
        .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING)
        .build());
  }

  private ReconcilerInput initialInput() {
    return new ReconcilerInput(settings.clusterName(), settings.reconciler(), 0, List.of());
  }

  /**
   * Starts the reconciler, or finds it running and hands it this worker's settings (a running reconciler keeps its
   * own otherwise, across continue-as-new). Returns its run id.
   */
  public String ensureRunning() {
    var stub = stub();
    var runId = WorkflowClient.start(stub::run, initialInput()).getRunId();
    stub.updateSettings(settings.reconciler());
    return runId;
  }

  /** Signals pending pods, starting the reconciler first if needed. */
  public void signalPending(List<PodRef> pods) {
    var reconciler = stub();
    var request = client.newSignalWithStartRequest();
    request.add(reconciler::run, initialInput());
    request.add(reconciler::podsPending, new PendingPods(pods));
    client.signalWithStart(request);
  }
}
