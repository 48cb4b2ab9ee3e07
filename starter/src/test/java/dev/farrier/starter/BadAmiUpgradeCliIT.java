package dev.farrier.starter;

import static dev.farrier.starter.UpgradeCliRuns.FARRIER;
import static dev.farrier.starter.UpgradeCliRuns.play;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.UpgradeScenario;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code farrier upgrade --wait} to an image whose nodes never join, as a CI job meets it ({@link UpgradeCliRuns}). */
class BadAmiUpgradeCliIT {
  @Test
  void anAmiWhoseNodesNeverJoinStopsAfterTheCanaryKeepsTheOldNodesAndExitsFive() throws Exception {
    var out = new ByteArrayOutputStream();
    var run = play("bad-ami", (fleet, print) -> fleet.playBadAmi(FARRIER, print), out);

    var result = UpgradeScenario.json(run.stdout());
    assertEquals(0, result.get("replaced"), out.toString(StandardCharsets.UTF_8));
    assertEquals("Failed", result.get("outcome"));
    assertTrue(String.valueOf(result.get("cause")).startsWith("replacement of fleet-"), String.valueOf(result.get("cause")));
  }
}
