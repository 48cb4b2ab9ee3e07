package dev.farrier.workflows.testing;

import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.types.FarrierWorkflows;
import dev.farrier.workflows.TaskQueues;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.activities.ClosedReplacement;
import dev.farrier.model.ReplacementResult;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;

/**
 * A time-skipping Temporal test environment with Farrier's search attributes registered, every workflow
 * implementation and the five fakes on {@link TaskQueues#DEFAULT}. Configure the fakes, then {@link #start()}.
 */
public final class FarrierTestEnvironment implements AutoCloseable {
  public final CallJournal journal = new CallJournal();
  public final FakeNodeClaimActivities nodeClaims = new FakeNodeClaimActivities(journal);
  public final FakeNodeActivities nodes = new FakeNodeActivities(journal);
  public final FakeInterruptionActivities interruption = new FakeInterruptionActivities(journal);
  public final FakeRolloutActivities rollout = new FakeRolloutActivities(journal);
  public final FakePreviewActivities preview = new FakePreviewActivities(journal);
  public final FakePlanningActivities planning = new FakePlanningActivities(journal).askingRolloutsOf(rollout);
  public final TestWorkflowEnvironment env;
  public final Worker worker;
  private final SkippingClock clock;

  public FarrierTestEnvironment() {
    env = TestWorkflowEnvironment.newInstance();
    FarrierSearchAttributes.ALL.forEach(key ->
        env.registerSearchAttribute(key.getName(), IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD));
    worker = env.newWorker(TaskQueues.DEFAULT);
    worker.registerWorkflowImplementationTypes(FarrierWorkflows.implementationTypes());
    worker.registerActivitiesImplementations(nodeClaims, nodes, planning, interruption, rollout, preview);
    rollout.onClosed(this::closedReplacement);
    clock = new SkippingClock(env);
  }

  /**
   * Lets simulated time pass, as {@code env.sleep} does, and keeps it skipping when the test server has leaked a lock
   * on it ({@link SkippingClock}).
   */
  public void sleep(java.time.Duration duration) {
    clock.sleep(duration);
  }

  /** How {@code disrupt/<nodeClaim>} ended, once it has (its latest run); empty while it runs. */
  private java.util.Optional<ClosedReplacement> closedReplacement(String nodeClaim) {
    var stub = client().newUntypedWorkflowStub(WorkflowIds.disruption(nodeClaim));
    WorkflowExecutionStatus status;
    try {
      status = stub.describe().getStatus();
    } catch (WorkflowNotFoundException e) {
      return java.util.Optional.of(ClosedReplacement.failed(nodeClaim, "not found"));
    }
    if (status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      return java.util.Optional.empty();
    }
    try {
      return java.util.Optional.of(ClosedReplacement.completed(nodeClaim, stub.getResult(ReplacementResult.class)));
    } catch (WorkflowFailedException e) {
      return java.util.Optional.of(ClosedReplacement.failed(nodeClaim, status.name() + ": " + Failures.reason(e.getCause())));
    }
  }

  /** Whether the workflow of this id (its latest run) runs now; false when there is none. */
  public boolean running(String workflowId) {
    try {
      return client().newUntypedWorkflowStub(workflowId).describe().getStatus()
          == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
    } catch (WorkflowNotFoundException e) {
      return false;
    }
  }

  public FarrierTestEnvironment start() {
    env.start();
    return this;
  }

  public WorkflowClient client() {
    return env.getWorkflowClient();
  }

  /** A typed stub for a new workflow with the given id on Farrier's task queue. */
  public <T> T newWorkflow(Class<T> type, String workflowId) {
    return client().newWorkflowStub(type,
        WorkflowOptions.newBuilder().setWorkflowId(workflowId).setTaskQueue(TaskQueues.DEFAULT).build());
  }

  /** A typed stub for a running (or closed) workflow, to signal or query it. */
  public <T> T existing(Class<T> type, String workflowId) {
    return client().newWorkflowStub(type, workflowId);
  }

  @Override
  public void close() {
    env.close();
  }
}
