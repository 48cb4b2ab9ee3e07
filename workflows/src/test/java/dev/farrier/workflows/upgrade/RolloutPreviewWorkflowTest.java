package dev.farrier.workflows.upgrade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.RolloutPreview;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.testing.FakePreviewActivities;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.failure.ApplicationFailure;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code farrier upgrade --dry-run}: the preview workflow answers what its activity read, and nothing else runs. */
class RolloutPreviewWorkflowTest {
  private final FarrierTestEnvironment test = new FarrierTestEnvironment();

  @AfterEach
  void close() {
    test.close();
  }

  @Test
  void theDryRunAnswersThePreviewAndTakesSwitchesOrReplacesNothing() {
    UpgradeInput input = new UpgradeInput(Fixtures.CLUSTER, List.of("default"), null, AmiTarget.parse("al2023@v20251103"), null,
        "2", 1, 60, 300, false, 0, false, "ci", null);
    String rollout = WorkflowIds.upgrade(input.nodePools(), null, input.targetText());
    test.preview.onPreview(r -> FakePreviewActivities.nothingToReplace(r));
    test.start();
    RolloutPreviewWorkflow workflow = test.newWorkflow(RolloutPreviewWorkflow.class, WorkflowIds.preview(rollout));

    RolloutPreview preview = WorkflowClient.execute(workflow::preview, input.previewRequest(rollout, null, null, null)).join();

    assertEquals(rollout, preview.rollout());
    assertEquals("preview/default/al2023@v20251103", WorkflowIds.preview(rollout));
    var asked = test.preview.requests.getFirst();
    assertEquals(List.of("default"), asked.target().nodePools());
    assertEquals("2", asked.batchSize());
    assertEquals(null, asked.running(), "a rollout not started has done nothing");
    assertEquals(List.of("previewRollout " + rollout), test.journal.all(), "nothing but the preview ran");
    assertTrue(preview.notStarting() != null);
  }

  /** A bad input (a UI or a script, not the CLI, which checks first) fails the preview at once, without retries. */
  @Test
  void aBadBatchSizeIsRefusedAtOnceAsInvalidUpgrade() {
    UpgradeInput input = new UpgradeInput(Fixtures.CLUSTER, List.of("default"), null, AmiTarget.parse("al2023@v20251103"), null,
        "two", 1, 60, 300, false, 0, false, "ci", null);
    String rollout = WorkflowIds.upgrade(input.nodePools(), null, input.targetText());
    test.start();
    RolloutPreviewWorkflow workflow = test.newWorkflow(RolloutPreviewWorkflow.class, WorkflowIds.preview(rollout) + "/bad");

    var failed = assertThrows(WorkflowFailedException.class, () -> workflow.preview(input.previewRequest(rollout, null, null, null)));

    assertTrue(failed.getCause() instanceof ApplicationFailure a && FailureTypes.INVALID_UPGRADE.equals(a.getType())
        && a.getOriginalMessage().contains("two"), String.valueOf(failed.getCause()));
    assertEquals(List.of(), test.journal.all(), "no activity ran");
  }
}
