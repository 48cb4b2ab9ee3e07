package dev.farrier.worker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.replacement.ReplacementInput;
import dev.farrier.workflows.replacement.ReplacementResult;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TemporalReplacementTrackerTest {
  /** The replacement's workflow type, with only what this test drives. */
  @WorkflowInterface
  public interface NodeReplacementWorkflow {
    @WorkflowMethod
    ReplacementResult replace(ReplacementInput input);

    @SignalMethod
    void resume();
  }

  /** A replacement that runs until told to finish. */
  public static class WaitingReplacement implements NodeReplacementWorkflow {
    private boolean finish;

    @Override
    public ReplacementResult replace(ReplacementInput input) {
      Workflow.await(() -> finish);
      return new ReplacementResult("nc", "Done", null, null, 0);
    }

    @Override
    public void resume() {
      finish = true;
    }
  }

  private final TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance();

  @AfterEach
  void close() {
    env.close();
  }

  @Test
  void onlyARunningReplacementCounts() {
    env.newWorker("farrier").registerWorkflowImplementationTypes(WaitingReplacement.class);
    env.start();
    var client = env.getWorkflowClient();
    var tracker = new TemporalReplacementTracker(client);
    assertFalse(tracker.running("never-replaced"), "no workflow: the taint is stale");

    var stub = client.newWorkflowStub(NodeReplacementWorkflow.class,
        WorkflowOptions.newBuilder().setWorkflowId(WorkflowIds.disruption("nc")).setTaskQueue("farrier").build());
    WorkflowClient.start(stub::replace, new ReplacementInput("c", null, null, 1, 1));
    assertTrue(tracker.running("nc"));

    stub.resume();
    client.newUntypedWorkflowStub(WorkflowIds.disruption("nc")).getResult(ReplacementResult.class);
    assertFalse(tracker.running("nc"), "a closed replacement owns no taint");
  }
}
