package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.FarrierSearchAttributes;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributeKey;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link TemporalUiBrowser} against the Temporal dev server's real Web UI: the blocked-replacements query lists
 * exactly the workflow whose {@code FarrierBlocker} is set, and its page shows its phase and blocker. The workflows
 * are stand-ins defined here that only set the search attributes, as a replacement does while a PDB blocks.
 */
public class TemporalUiBrowserIT {
  /** The README's query: running workflows with a blocker (a finished one keeps its last search attributes). */
  static final String BLOCKED_REPLACEMENTS = FarrierSearchAttributes.BLOCKED_REPLACEMENTS_QUERY;
  private static final SearchAttributeKey<String> BLOCKER = FarrierSearchAttributes.BLOCKER;
  private static final String NAMESPACE = "default";
  private static final String TASK_QUEUE = "ui-browser-it";
  private static final String PDB_BLOCKER = "PodDisruptionBudget default/inflate-pdb";

  @Test
  void blockedReplacementsQueryListsOnlyTheBlockedWorkflowAndItsPageShowsPhaseAndBlocker() throws Exception {
    var runDir = E2e.runDir("temporal-ui-browser");
    try (var temporal = TemporalWithUi.start(runDir, TASK_QUEUE, ParkedReplacementImpl.class)) {
      var client = temporal.client;
      start(client, "disrupt/ui-blocked", PDB_BLOCKER);
      start(client, "disrupt/ui-never-blocked", null);
      start(client, "disrupt/ui-unblocked", PDB_BLOCKER).unblock();
      // The UI reads visibility, which lags the workflows: wait until it has all three in their final state.
      E2e.await("visibility of the three workflows", E2e.TIMEOUT,
          () -> count(client, "FarrierPhase=\"Draining\"") == 3
              && count(client, "FarrierPhase=\"Draining\" AND FarrierBlocker IS NULL") == 2);

      try (var ui = TemporalUiBrowser.open(temporal.stack.temporalUiUrl(), runDir.resolve("ui"))) {
        var rows = ui.listWorkflows(NAMESPACE, BLOCKED_REPLACEMENTS);
        assertEquals(List.of("disrupt/ui-blocked"), rows.stream().map(TemporalUiBrowser.WorkflowRow::workflowId).toList());
        assertEquals("Running", rows.getFirst().status());
        assertEquals("ParkedReplacement", rows.getFirst().type());

        var attributes = ui.searchAttributes(NAMESPACE, "disrupt/ui-blocked");
        assertEquals("Draining", attributes.get("FarrierPhase"), attributes.toString());
        assertEquals(PDB_BLOCKER, attributes.get("FarrierBlocker"), attributes.toString());
        var unblocked = ui.searchAttributes(NAMESPACE, "disrupt/ui-unblocked");
        assertFalse(unblocked.containsKey("FarrierBlocker"), "an unset blocker is not shown: " + unblocked);

        var rejected = assertThrows(IllegalArgumentException.class, () -> ui.listWorkflows(NAMESPACE, "FarrierBlocker IS BLOCKED"));
        assertTrue(rejected.getMessage().contains("invalid query"), rejected.getMessage());
      }
    }
  }

  private static ParkedReplacement start(WorkflowClient client, String workflowId, String blocker) {
    var workflow = client.newWorkflowStub(ParkedReplacement.class, WorkflowOptions.newBuilder()
        .setWorkflowId(workflowId)
        .setTaskQueue(TASK_QUEUE)
        // Each id is started once on a fresh server: a second start would be a test bug.
        .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_FAIL)
        .setWorkflowExecutionTimeout(Duration.ofMinutes(10))
        .build());
    WorkflowClient.start(workflow::park, new Parking("Draining", blocker));
    return workflow;
  }

  private static long count(WorkflowClient client, String query) {
    return client.countWorkflows(query).getCount();
  }

  /** A replacement's search attributes and nothing else; {@code blocker} null leaves FarrierBlocker unset. */
  public record Parking(String phase, String blocker) {}

  @WorkflowInterface
  public interface ParkedReplacement {
    @WorkflowMethod(name = "ParkedReplacement")
    void park(Parking parking);

    /** The blocker goes away (unset, as when the PDB lets the eviction through); the workflow keeps running. */
    @SignalMethod
    void unblock();
  }

  public static class ParkedReplacementImpl implements ParkedReplacement {
    private boolean unblocked;

    @Override
    public void park(Parking parking) {
      Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.PHASE.valueSet(parking.phase()));
      if (parking.blocker() != null) {
        Workflow.upsertTypedSearchAttributes(BLOCKER.valueSet(parking.blocker()));
      }
      // Unset only after the set above, even when the signal came in the same workflow task as the start.
      Workflow.await(() -> unblocked);
      Workflow.upsertTypedSearchAttributes(BLOCKER.valueUnset());
      Workflow.await(() -> false);
    }

    @Override
    public void unblock() {
      unblocked = true;
    }
  }
}
