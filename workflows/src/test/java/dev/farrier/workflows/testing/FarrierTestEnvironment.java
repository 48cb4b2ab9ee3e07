package dev.farrier.workflows.testing;

import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.FarrierWorkflows;
import dev.farrier.workflows.TaskQueues;
import io.temporal.api.enums.v1.IndexedValueType;
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
  public final FakePlanningActivities planning = new FakePlanningActivities(journal).askingRolloutsOf(rollout);
  public final TestWorkflowEnvironment env;
  public final Worker worker;

  public FarrierTestEnvironment() {
    env = TestWorkflowEnvironment.newInstance();
    FarrierSearchAttributes.ALL.forEach(key ->
        env.registerSearchAttribute(key.getName(), IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD));
    worker = env.newWorker(TaskQueues.DEFAULT);
    worker.registerWorkflowImplementationTypes(FarrierWorkflows.implementationTypes());
    worker.registerActivitiesImplementations(nodeClaims, nodes, planning, interruption, rollout);
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
