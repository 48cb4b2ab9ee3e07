package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.workflows.WorkflowIds;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/**
 * A scheduled disruption budget end to end: the blueprint's NodePool with a budget of 0 nodes in force for every even
 * minute (a cron schedule firing every second minute, {@code duration: 1m}, UTC; the CRD admits durations in minutes
 * and hours only). A node that drifts in that window
 * is held while the budget is in force, and its replacement starts once it is not (no budget in force limits nothing).
 */
class ScheduledBudgetIT {
  private static final String BUDGETS = "  disruption:\n    budgets:\n      - nodes: \"0\"\n        schedule: \"*/2 * * * *\"\n"
      + "        duration: 1m\n    consolidationPolicy";

  @Test
  void aScheduledBudgetBlocksWhileInForceThenAllows() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("scheduled-budget"), "e2e-budget", 0)) {
      env.startWorker();
      var scenario = E2e.scenario(env);
      var old = scenario.provision("1.34", blueprint -> {
        String edited = blueprint.replace("  disruption:\n    consolidationPolicy", BUDGETS);
        if (edited.equals(blueprint)) {
          throw new IllegalStateException("the blueprint changed: the budget was not added");
        }
        return edited;
      });
      // Switch the images at the start of an even minute, while the budget of 0 is in force.
      E2e.await("the start of an even minute", java.time.Duration.ofSeconds(130), () -> {
        var now = Instant.now().atZone(ZoneOffset.UTC);
        return now.getMinute() % 2 == 0 && now.getSecond() < 3;
      });
      var switchedAt = scenario.switchImages("1.35");
      var up = scenario.awaitUpgrade(old, switchedAt);

      assertEquals("Done", up.result().outcome());
      var started = env.temporal().newUntypedWorkflowStub(WorkflowIds.disruption(old.nodeClaim())).describe().getStartTime();
      Instant windowEnd = switchedAt.truncatedTo(ChronoUnit.MINUTES).plusSeconds(60);
      assertTrue(!started.isBefore(windowEnd), "the replacement started at " + started + ", inside the budget's window ending "
          + windowEnd);
      assertTrue(started.isBefore(windowEnd.plusSeconds(25)), "the replacement started at " + started
          + ", not within a planning round or two of the window's end " + windowEnd);
    }
  }
}
