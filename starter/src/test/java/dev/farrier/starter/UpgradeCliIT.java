package dev.farrier.starter;

import static dev.farrier.starter.UpgradeCliRuns.FARRIER;
import static dev.farrier.starter.UpgradeCliRuns.play;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.UpgradeScenario;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code farrier upgrade --wait} as a CI job runs it ({@link UpgradeCliRuns}). The sandbox's {@code upgrade} scenario
 * checks what the job sees and what the cluster shows after; this test adds what the workflows record.
 */
class UpgradeCliIT {
  @Test
  void aGoodAmiRollsTheWholeFleetCanaryFirstAndExitsZero() throws Exception {
    var out = new ByteArrayOutputStream();
    var run = play("upgrade", (fleet, print) -> fleet.playGood(FARRIER, List.of(), print), out);

    var result = UpgradeScenario.json(run.stdout());
    assertEquals(6, result.get("replaced"), out.toString(StandardCharsets.UTF_8));
    assertEquals(4, result.get("batches"), "a canary of one, then batches of two: " + result);
    assertTrue(run.stderr().getFirst().startsWith("started rollout upgrade/fleet/al2023@v20251103"), run.stderr().toString());
    assertTrue(run.stderr().stream().anyMatch(l -> l.contains("Canary, batch 1")), run.stderr().toString());
  }
}
