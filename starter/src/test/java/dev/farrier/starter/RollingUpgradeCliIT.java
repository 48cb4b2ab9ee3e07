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

/** {@code farrier upgrade --rolling --wait} as a CI job runs it ({@link UpgradeCliRuns}). */
class RollingUpgradeCliIT {
  /**
   * {@code --rolling} on the real stack: the planner is asked while replacements run, with the rollout's own in flight
   * named, under the fleet's budget of two and its PDB; every node is rolled, each gated on its own.
   */
  @Test
  void aRollingUpgradeRollsTheWholeFleetRefillingEachSlotAsItsReplacementPasses() throws Exception {
    var out = new ByteArrayOutputStream();
    var run = play("upgrade-rolling", (fleet, print) -> fleet.playGood(FARRIER, List.of("--rolling"), print), out);

    var result = UpgradeScenario.json(run.stdout());
    assertEquals(6, result.get("replaced"), out.toString(StandardCharsets.UTF_8));
    assertEquals(0, result.get("failures"), result.toString());
    assertTrue(run.stderr().stream().anyMatch(l -> l.contains(": Rolling")), run.stderr().toString());
  }
}
