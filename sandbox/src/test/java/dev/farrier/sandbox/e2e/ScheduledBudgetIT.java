package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.DriftScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.workflows.WorkflowIds;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A scheduled disruption budget end to end: the blueprint's NodePool with a budget of 0 nodes in force for one minute
 * of every hour (a cron schedule {@code "M * * * *"}, {@code duration: 1m}, UTC; the CRD admits durations in minutes
 * and hours only), M set to the coming minute once the node is up. A node that drifts in that window is held while the
 * budget is in force, and its replacement starts once it is not (no budget in force limits nothing).
 */
class ScheduledBudgetIT {
  private static final String BUDGETS = "  disruption:\n    budgets:\n      - nodes: \"0\"\n        schedule: \"%d * * * *\"\n"
      + "        duration: 1m\n    consolidationPolicy";
  /** The budget's minute is chosen at least this far ahead, so the worker sees the NodePool's edit before the window. */
  private static final Duration LEAD = Duration.ofSeconds(5);

  @Test
  void aScheduledBudgetBlocksWhileInForceThenAllows() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("scheduled-budget"), "e2e-budget", 0)) {
      env.startWorker();
      var scenario = E2e.scenario(env);
      // Half an hour away while the node comes up; moved to the coming minute below.
      int later = Instant.now().atZone(ZoneOffset.UTC).plusMinutes(30).getMinute();
      var old = scenario.provision("1.34", blueprint -> {
        String edited = blueprint.replace("  disruption:\n    consolidationPolicy", BUDGETS.formatted(later));
        if (edited.equals(blueprint)) {
          throw new IllegalStateException("the blueprint changed: the budget was not added");
        }
        return edited;
      });
      // Switch the images at the start of the budget's minute, while the budget of 0 is in force.
      Instant windowStart = Instant.now().plus(LEAD).plus(Duration.ofMinutes(1)).truncatedTo(ChronoUnit.MINUTES);
      int minute = windowStart.atZone(ZoneOffset.UTC).getMinute();
      env.kube().genericKubernetesResources("karpenter.sh/v1", "NodePool").withName(DriftScenario.NODE_POOL).edit(pool -> {
        @SuppressWarnings("unchecked")
        var disruption = (Map<String, Object>) ((Map<String, Object>) pool.getAdditionalProperties().get("spec")).get("disruption");
        @SuppressWarnings("unchecked")
        var budget = ((List<Map<String, Object>>) disruption.get("budgets")).getFirst();
        budget.put("schedule", minute + " * * * *");
        return pool;
      });
      E2e.await("the start of minute " + minute, Duration.ofSeconds(90), () -> !Instant.now().isBefore(windowStart));
      var switchedAt = scenario.switchImages("1.35");
      var up = scenario.awaitUpgrade(old, switchedAt);

      assertEquals("Done", up.result().outcome());
      var started = env.temporal().newUntypedWorkflowStub(WorkflowIds.disruption(old.nodeClaim())).describe().getStartTime();
      Instant windowEnd = windowStart.plusSeconds(60);
      assertTrue(!started.isBefore(windowEnd), "the replacement started at " + started + ", inside the budget's window ending "
          + windowEnd);
      assertTrue(started.isBefore(windowEnd.plusSeconds(25)), "the replacement started at " + started
          + ", not within a planning round or two of the window's end " + windowEnd);
    }
  }
}
