package dev.farrier.worker;

import dev.farrier.worker.config.WorkerSettings;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.interruption.InterruptionInput;
import dev.farrier.workflows.interruption.InterruptionWorkflow;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import jakarta.inject.Singleton;

/**
 * The worker's handle on {@code interruption/<queue>}: started if not running (conflict policy USE_EXISTING), so any
 * number of workers share one poller per queue.
 */
@Singleton
public class InterruptionClient {
  private final WorkflowClient client;
  private final WorkerSettings settings;

  public InterruptionClient(WorkflowClient client, WorkerSettings settings) {
    this.client = client;
    this.settings = settings;
  }

  public String workflowId() {
    return WorkflowIds.interruption(settings.interruptionQueue());
  }

  /** Starts the poller, or finds it running and hands it this worker's replacement settings. Returns its run id. */
  public String ensureRunning() {
    var stub = client.newWorkflowStub(InterruptionWorkflow.class, WorkflowOptions.newBuilder()
        .setWorkflowId(workflowId())
        .setTaskQueue(settings.taskQueue())
        .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING)
        .build());
    var runId = WorkflowClient.start(stub::run,
        new InterruptionInput(settings.clusterName(), settings.interruptionQueue(), settings.reconciler())).getRunId();
    stub.updateSettings(settings.reconciler());
    return runId;
  }
}
