package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.OperatorRequest;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * An operator's actions sent from the Temporal dev server's real Web UI with {@link TemporalUiBrowser}, as docs/operate.md
 * tells: the {@code Pause} Update from "More Actions" / "Send an Update" is accepted once, its result shown, and then
 * refused with its validator's message; the {@code Resume} Update then lifts the pause. The workflow is a stand-in with
 * the replacement's names and validator message, checked through the SDK by a query.
 */
public class TemporalUiActionsIT {
  private static final String NAMESPACE = "default";
  private static final String TASK_QUEUE = "ui-actions-it";
  private static final String WORKFLOW_ID = "disrupt/ui-actions";
  private static final String ALREADY_PAUSED = "already paused; resume it with Resume";

  @Test
  void pauseUpdateIsAcceptedThenRefusedWithItsMessageAndTheResumeUpdateLiftsIt() throws Exception {
    var runDir = E2e.runDir("temporal-ui-actions");
    try (var temporal = TemporalWithUi.start(runDir, TASK_QUEUE, PausableStandInImpl.class)) {
      var client = temporal.client;
      var workflow = client.newWorkflowStub(PausableStandIn.class, WorkflowOptions.newBuilder()
          .setWorkflowId(WORKFLOW_ID)
          .setTaskQueue(TASK_QUEUE)
          // Started once on a fresh server: a second start would be a test bug.
          .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_FAIL)
          .setWorkflowExecutionTimeout(Duration.ofMinutes(10))
          .build());
      WorkflowClient.start(workflow::run);

      try (var ui = TemporalUiBrowser.open(temporal.stack.temporalUiUrl(), runDir.resolve("ui"))) {
        var accepted = ui.sendUpdate(NAMESPACE, WORKFLOW_ID, NodeReplacementWorkflow.PAUSE,
            "{\"reason\": \"kernel bug\", \"by\": \"alice\"}");
        assertTrue(accepted.succeeded(), accepted.toString());
        assertEquals("\"" + WORKFLOW_ID + ": paused (kernel bug (by alice))\"", accepted.text());
        assertTrue(workflow.paused(), "paused after the accepted Update");

        var refused = ui.sendUpdate(NAMESPACE, WORKFLOW_ID, NodeReplacementWorkflow.PAUSE,
            "{\"reason\": \"again\", \"by\": \"bob\"}");
        assertFalse(refused.succeeded(), refused.toString());
        assertEquals(ALREADY_PAUSED, refused.text());
        assertEquals(1, workflow.pausesAccepted(), "a refused Update never reaches the workflow");

        var resumed = ui.sendUpdate(NAMESPACE, WORKFLOW_ID, NodeReplacementWorkflow.RESUME,
            "{\"reason\": \"fixed\", \"by\": \"alice\"}");
        assertTrue(resumed.succeeded(), resumed.toString());
        assertEquals("\"" + WORKFLOW_ID + ": resumed (fixed (by alice))\"", resumed.text());
        assertFalse(workflow.paused(), "resumed after the accepted Update");
      }
    }
  }

  /** The replacement's {@code Pause} Update (same name, input and refusal) and its {@code Resume} Update. */
  @WorkflowInterface
  public interface PausableStandIn {
    @WorkflowMethod(name = "PausableStandIn")
    void run();

    @UpdateMethod(name = NodeReplacementWorkflow.PAUSE)
    String pause(OperatorRequest request);

    @UpdateValidatorMethod(updateName = NodeReplacementWorkflow.PAUSE)
    void validatePause(OperatorRequest request);

    @UpdateMethod(name = NodeReplacementWorkflow.RESUME)
    String resume(OperatorRequest request);

    @UpdateValidatorMethod(updateName = NodeReplacementWorkflow.RESUME)
    void validateResume(OperatorRequest request);

    @QueryMethod
    boolean paused();

    @QueryMethod
    int pausesAccepted();
  }

  public static class PausableStandInImpl implements PausableStandIn {
    private boolean paused;
    private int pausesAccepted;

    @Override
    public void run() {
      Workflow.await(() -> false);
    }

    @Override
    public String pause(OperatorRequest request) {
      paused = true;
      pausesAccepted++;
      return Workflow.getInfo().getWorkflowId() + ": paused (" + request.describe() + ")";
    }

    @Override
    public void validatePause(OperatorRequest request) {
      if (paused) {
        throw new IllegalStateException(ALREADY_PAUSED); // as the replacement's validator refuses
      }
    }

    @Override
    public String resume(OperatorRequest request) {
      paused = false;
      return Workflow.getInfo().getWorkflowId() + ": resumed (" + request.describe() + ")";
    }

    @Override
    public void validateResume(OperatorRequest request) {
      if (!paused) {
        throw new IllegalStateException("it is not paused"); // as the replacement's validator refuses
      }
    }

    @Override
    public boolean paused() {
      return paused;
    }

    @Override
    public int pausesAccepted() {
      return pausesAccepted;
    }
  }
}
