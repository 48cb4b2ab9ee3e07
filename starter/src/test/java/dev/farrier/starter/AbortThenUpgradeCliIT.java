package dev.farrier.starter;

import static dev.farrier.starter.UpgradeCliRuns.FARRIER;
import static dev.farrier.starter.UpgradeCliRuns.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.AbortThenUpgradeScenario;
import dev.farrier.sandbox.UpgradeScenario;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A rollout aborted, then at once the next one, as a CI job runs them ({@link UpgradeCliRuns}). */
class AbortThenUpgradeCliIT {
  /**
   * Issue 38 as a CI job met it: two NodePools of two architectures on one EC2NodeClass, a rollout aborted while its
   * canary replacement runs, then at once a rollout to the next release. It exits 0 only with every node of both
   * NodePools on the new images, the node whose replacement the abort stopped included (the scenario checks the fleet);
   * the aborted rollout's result says it was aborted.
   */
  @Test
  void aRolloutRightAfterAnAbortedOneReplacesEveryNodeOfBothArchitectures() throws Exception {
    var out = new ByteArrayOutputStream();
    AbortThenUpgradeScenario.Played played;
    try (var env = start("abort-then-upgrade")) {
      played = new AbortThenUpgradeScenario(env, Duration.ofMinutes(12))
          .play(FARRIER, new PrintStream(out, true, StandardCharsets.UTF_8));
    }
    String log = out.toString(StandardCharsets.UTF_8);
    assertTrue(played.aborted().stdout().contains("Aborted"), played.aborted().stdout() + "\n" + log);
    var result = UpgradeScenario.json(played.rollout().stdout());
    assertEquals(result.get("total"), result.get("replaced"), "every node it counted was replaced: " + result + "\n" + log);
    assertTrue((Integer) result.get("replaced") >= 5, "both NodePools' nodes, the one the abort stopped too: " + result + "\n" + log);
    assertTrue(played.after().keySet().stream().noneMatch(played.before()::containsKey),
        "every old node gone: before " + played.before() + ", after " + played.after());
  }
}
