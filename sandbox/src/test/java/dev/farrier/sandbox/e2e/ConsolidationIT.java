package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.CloudCall;
import dev.farrier.activities.cloud.simulated.CloudCallLog;
import dev.farrier.sandbox.ConsolidationScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Consolidation end to end, on the real worker. Underutilized: the app scaled to one pod, its node is replaced by a
 * cheaper one (on-demand price of the new type below the old). Empty: then scaled to none, the pod-event loop writes the NodeClaim's
 * {@code lastPodEventTime} when the pods leave, the planner makes it Consolidatable once {@code consolidateAfter} has
 * passed and plans an {@code empty} deletion, the replacement workflow checks it again and removes node, claim and
 * instance, launching nothing.
 */
class ConsolidationIT {
  @Test
  void anUnderutilizedNodeIsReplacedByACheaperOneAndAnEmptyNodeIsRemovedOnceConsolidateAfterHasPassed() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("consolidation"), "e2e-consolidation", 0)) {
      env.startWorker();
      var scenario = E2e.scenario(env);
      var first = scenario.provision("1.34", ConsolidationScenario::edit);
      var consolidation = new ConsolidationScenario(env.kube(), scenario, E2e.TIMEOUT);

      var replaced = consolidation.scaleDownAndAwaitReplacement(first);
      assertEquals("Done", replaced.result().outcome());
      double oldPrice = E2e.onDemandPrice(env, replaced.oldType());
      double newPrice = E2e.onDemandPrice(env, replaced.newType());
      assertTrue(newPrice < oldPrice, replaced.oldType() + " ($" + oldPrice + "/h) replaced by " + replaced.newType() + " ($"
          + newPrice + "/h)");
      assertTrue(env.kube().nodes().withName(first.node()).get() == null, "the underutilized node is gone");

      var node = replaced.replacement();
      var before = Instant.now();
      var done = consolidation.emptyAndAwaitRemoval(node);

      assertEquals("Done", done.result().outcome());
      assertEquals(null, done.result().replacementNodeClaim(), "an empty node is deleted, not replaced");
      // Counted from the last pod event, or from initialization when the pod left within the dedupe window of its arrival.
      assertTrue(String.valueOf(done.consolidatable().get("message")).startsWith("consolidateAfter 20s passed ("),
          done.consolidatable().toString());
      // Never before consolidateAfter since the pods left: the scale-down to the removal takes at least that long.
      assertTrue(Duration.between(done.emptiedAt(), done.goneAt()).toSeconds() >= 20,
          "removed " + Duration.between(done.emptiedAt(), done.goneAt()) + " after the scale-down");
      var calls = new CloudCallLog(env.cloudDir()).read().stream().filter(c -> c.time().isAfter(before)).toList();
      assertEquals(1, calls.stream().filter(c -> c.operation() == CloudCall.Operation.TERMINATE).count(), calls.toString());
      assertEquals(0, calls.stream().filter(c -> c.operation() == CloudCall.Operation.CREATE).count(), calls.toString());
      var events = env.kube().v1().events().inAnyNamespace().list().getItems().stream()
          .filter(e -> node.node().equals(e.getInvolvedObject().getName())).map(e -> e.getReason() + ": " + e.getMessage()).toList();
      assertTrue(events.stream().anyMatch(e -> e.startsWith("DisruptionStarted: disrupting via delete: empty")), events.toString());
    }
  }
}
