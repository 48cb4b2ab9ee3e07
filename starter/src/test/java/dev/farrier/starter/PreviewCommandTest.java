package dev.farrier.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.farrier.model.RolloutBatch;
import dev.farrier.model.RolloutPreview;
import dev.farrier.model.RolloutPreview.PreviewBatch;
import dev.farrier.model.RolloutPreview.PreviewEstimate;
import dev.farrier.model.RolloutPreview.PreviewHold;
import dev.farrier.model.RolloutPreview.PreviewNode;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.activities.PreviewRolloutRequest;
import dev.farrier.workflows.testing.Eventually;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import dev.farrier.workflows.upgrade.NodePoolUpgradeWorkflow;
import io.temporal.failure.ApplicationFailure;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code farrier upgrade --dry-run} and {@code farrier upgrade preview <id>} against the real workflows on Temporal's
 * test server, the preview activity a fake: what they print, their exit codes, and that a dry run starts no rollout.
 */
class PreviewCommandTest {
  private static final String ID = "upgrade/default/al2023@v20251103";
  private static final String[] DRY_RUN = {"upgrade", "--cluster", Fixtures.CLUSTER, "--nodepool", "default", "--ami",
      "al2023@v20251103", "--canary", "1", "--batch-size", "2", "--soak", "0s", "--dry-run"};

  private final FarrierTestEnvironment test = new FarrierTestEnvironment();

  @AfterEach
  void stop() {
    test.close();
  }

  private FarrierCliTest.Run run(String... args) {
    return UpgradeCommandTest.run(test, args);
  }

  private static String[] with(String[] base, String... more) {
    return UpgradeCommandTest.with(base, more);
  }

  private static PreviewNode node(String claim, List<PreviewHold> holds) {
    return new PreviewNode(claim, claim + "-node", "default", "m5.large", "ami-old", "al2023-v20251020", "ami-new",
        "al2023-v20251103", holds, "drifted");
  }

  private static RolloutPreview threeNodes(PreviewRolloutRequest r) {
    return threeNodes(r, null);
  }

  private static RolloutPreview threeNodes(PreviewRolloutRequest r, String frozen) {
    return new RolloutPreview(r.target().workflowId(), r.running() != null, List.of("default"), "default", r.targetText(),
        List.of("ami-new"), r.rolling(), 1, 2, List.of(),
        List.of(new PreviewBatch(1, true, List.of(node("default-1", List.of()))),
            new PreviewBatch(2, false, List.of(node("default-2", List.of(new PreviewHold("PodDisruptionBudget", "default/web",
                "allows no eviction now (1 healthy, 1 desired): holds the drain until its pods' owners act")))))),
        List.of(node("default-3", List.of(new PreviewHold("do-not-disrupt", "default/job-1", "holds the node until the pod ends")))),
        3, new PreviewEstimate(4, 100L, 200L, 300L, "4 closed replacement(s)"), null, frozen);
  }

  @Test
  void aDryRunPrintsTheBatchesHoldsImagesAndEstimateAndStartsNoRollout() {
    test.preview.onPreview(PreviewCommandTest::threeNodes);
    test.start();
    var run = run(DRY_RUN);

    assertEquals(0, run.exitCode(), run::toString);
    assertTrue(run.out().startsWith("preview of " + ID + " (nothing moved)"), run.out());
    assertTrue(run.out().contains("batch 1 (canary):\n  default-1  node default-1-node  default  m5.large  ami-old (al2023-v20251020)"
        + " -> ami-new (al2023-v20251103)"), run.out());
    assertTrue(run.out().contains("held by PodDisruptionBudget default/web: allows no eviction now"), run.out());
    assertTrue(run.out().contains("held (the rollout waits for them):\n  default-3"), run.out());
    assertTrue(run.out().contains("estimate: 5m00s (4 closed replacement(s))"), run.out());
    assertEquals(0, test.journal.countStartingWith("claim"), "no rollout started: " + test.journal.all());
    assertEquals(List.of("previewRollout " + ID), test.journal.all());
  }

  @Test
  void aChangeFreezeHoldingTheNodePoolsIsShown() {
    test.preview.onPreview(r -> threeNodes(r, "NodePool default frozen by ops: release week"));
    test.start();
    var run = run(DRY_RUN);
    assertEquals(0, run.exitCode(), run::toString);
    assertTrue(run.out().contains("frozen now: NodePool default frozen by ops: release week: no batch starts until the"
        + " freeze is lifted"), run.out());
  }

  @Test
  void aDryRunWithWaitIsRefusedNotIgnoredAndPreviewTakesNoBy() {
    test.start();
    var waited = run(with(DRY_RUN, "--wait"));
    assertEquals(ExitCodes.USAGE, waited.exitCode(), waited::toString);
    assertTrue(waited.err().contains("nothing to --wait for"), waited.err());
    assertEquals(List.of(), test.preview.requests, "no preview ran");
    var by = run("upgrade", "--cluster", Fixtures.CLUSTER, "preview", ID, "--by", "alice");
    assertEquals(ExitCodes.USAGE, by.exitCode(), by::toString);
  }

  @Test
  void aDryRunAsJsonIsThePreviewWhole() throws Exception {
    test.preview.onPreview(PreviewCommandTest::threeNodes);
    test.start();
    var run = run(with(DRY_RUN, "-o", "json"));

    assertEquals(0, run.exitCode(), run::toString);
    JsonNode json = Json.MAPPER.readTree(run.out());
    assertEquals(ID, json.get("rollout").asText());
    assertEquals(2, json.get("batches").size());
    assertEquals("ami-new", json.get("batches").get(0).get("nodes").get(0).get("imageAfter").asText());
    assertEquals("do-not-disrupt", json.get("held").get(0).get("holds").get(0).get("kind").asText());
    assertEquals(300, json.get("estimate").get("totalSeconds").asInt());
  }

  @Test
  void nothingToReplaceExitsEightAndATargetTheRolloutWouldRefuseExitsTwo() {
    test.start();
    var nothing = run(DRY_RUN);
    assertEquals(ExitCodes.NOTHING_TO_REPLACE, nothing.exitCode(), nothing::toString);
    assertTrue(nothing.out().contains("nothing to replace"), nothing.out());

    test.preview.onPreview(r -> {
      throw ApplicationFailure.newNonRetryableFailure("the target resolves to no image [alias al2023@v20251103]: nothing to"
          + " roll to", FailureTypes.INVALID_UPGRADE);
    });
    var refused = run(DRY_RUN);
    assertEquals(ExitCodes.USAGE, refused.exitCode(), refused::toString);
    assertTrue(refused.err().contains("resolves to no image"), refused.err());
  }

  @Test
  void previewOfARunningRolloutAnswersWhatIsLeftAndIsRefusedOnceItStops() {
    test.planning.onPlanRollout(r -> new RolloutBatch(List.of(Fixtures.command("default-1", "replace", null)), 2, List.of()));
    test.preview.onPreview(PreviewCommandTest::threeNodes);
    test.start();
    assertEquals(0, run(with(new String[] {"upgrade", "--cluster", Fixtures.CLUSTER, "--nodepool", "default", "--ami",
        "al2023@v20251103", "--canary", "1", "--soak", "0s", "--approve"})).exitCode());
    var rollout = test.existing(NodePoolUpgradeWorkflow.class, ID);
    Eventually.await("waiting for approval", rollout::progress, p -> p.phase().equals("AwaitingApproval"));

    int rolloutEvents = test.client().fetchHistory(ID).getHistory().getEventsCount();
    var left = run("upgrade", "--cluster", Fixtures.CLUSTER, "preview", ID);
    assertEquals(0, left.exitCode(), left::toString);
    assertTrue(left.out().startsWith("what rollout " + ID + " has left"), left.out());
    assertEquals(1, test.preview.requests.getLast().running().batches());
    assertEquals("AwaitingApproval", test.preview.requests.getLast().running().phase());
    assertEquals(rolloutEvents, test.client().fetchHistory(ID).getHistory().getEventsCount(),
        "the preview ran in its own workflow: nothing in the rollout's history");

    // --dry-run of the same rollout would attach to it: it shows what the running one has left.
    var dryRun = run(with(new String[] {"upgrade", "--cluster", Fixtures.CLUSTER, "--nodepool", "default", "--ami",
        "al2023@v20251103", "--canary", "3", "--dry-run"}));
    assertEquals(0, dryRun.exitCode(), dryRun::toString);
    assertTrue(dryRun.err().contains("is running: `farrier upgrade` would attach to it"), dryRun.err());
    assertEquals(1, test.preview.requests.getLast().canary(), "the running rollout's flags, not the dry run's");
    assertEquals(1, test.preview.requests.getLast().running().batches());

    var aborted = run("upgrade", "--cluster", Fixtures.CLUSTER, "abort", ID, "--reason", "seen enough");
    assertEquals(0, aborted.exitCode(), aborted::toString);
    var refused = run("upgrade", "--cluster", Fixtures.CLUSTER, "preview", ID);
    assertEquals(ExitCodes.REFUSED, refused.exitCode(), refused::toString);
    assertTrue(refused.err().contains("nothing left to preview"), refused.err());
  }

  /** Two CI jobs asking at once with different flags each get the answer to their own flags. */
  @Test
  void concurrentDryRunsWithDifferentFlagsGetTheirOwnAnswers() throws Exception {
    var bothAsked = new java.util.concurrent.CountDownLatch(2);
    test.preview.onPreview(r -> {
      bothAsked.countDown();
      try {
        bothAsked.await(10, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return threeNodes(r);
    });
    test.start();
    var one = java.util.concurrent.CompletableFuture.supplyAsync(() -> run(with(DRY_RUN, "-o", "json")));
    var other = java.util.concurrent.CompletableFuture.supplyAsync(() -> run(with(DRY_RUN, "--rolling", "-o", "json")));
    assertEquals(false, Json.MAPPER.readTree(one.get().out()).get("rolling").asBoolean(), one.get()::toString);
    assertEquals(true, Json.MAPPER.readTree(other.get().out()).get("rolling").asBoolean(), other.get()::toString);
    assertEquals(2, test.preview.requests.size(), "two previews, one per flag set");
  }
}
