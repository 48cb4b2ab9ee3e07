package dev.farrier.starter;

import static dev.farrier.starter.UpgradeCliRuns.FARRIER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.PreviewScenario;
import dev.farrier.sandbox.UpgradeScenario;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's {@code preview} scenario end to end ({@code bin/farrier} against the local stack, the worker in its own
 * JVM): {@code farrier upgrade --dry-run} prints the batches, the held node, the images and the estimate, in text and
 * JSON, and moves nothing; {@code farrier upgrade preview <id>} answers what a running rollout has left.
 */
class PreviewCliIT {
  @Test
  void aDryRunShowsTheBatchesHoldsImagesAndEstimateAndMovesNothingAndARunningRolloutPreviewsWhatIsLeft() throws Exception {
    var out = new ByteArrayOutputStream();
    PreviewScenario.Played played;
    try (var env = UpgradeCliRuns.start("preview")) {
      played = new PreviewScenario(env, Duration.ofMinutes(10)).play(FARRIER, new PrintStream(out, true, StandardCharsets.UTF_8));
    }
    String log = out.toString(StandardCharsets.UTF_8);
    assertEquals(List.of(), PreviewScenario.problems(played), log);
    Map<String, Object> preview = UpgradeScenario.json(played.dryRun().stdout());
    assertEquals("upgrade/fleet/" + UpgradeScenario.GOOD_TARGET, preview.get("rollout"), log);
    assertEquals(List.of(), played.workflows(), "nothing started: " + log);
    assertTrue(played.dryRunText().stdout().contains("held by do-not-disrupt"), played.dryRunText().stdout());
  }
}
