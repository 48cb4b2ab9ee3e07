package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.SplitScenario;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's {@code split} scenario end to end (simulated cloud, real worker, kube-apiserver, scheduler, kwok and
 * Temporal): a gated Deployment of 10 pods annotated {@code farrier.dev/on-demand-min: "30%"} on a NodePool offering
 * spot and on-demand gets exactly 3 pods pinned (at least 3 on on-demand nodes) and the rest on spot; after a spot interruption and a
 * scale-out to 20 the share still holds (at least 6 of 20), and again after the scale-down to 10. The minimum then
 * raised (as a count) above the pods on on-demand is met by rebalancing: spot pods evicted one at a time, their
 * replacements pinned. A typo in the annotation leaves the pod gated with a Warning Event on its Deployment.
 */
class CapacitySplitIT {
  @Test
  void aThirtyPercentOnDemandMinimumHoldsThroughASpotInterruptionAScaleOutAndAScaleDown() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("split"), "e2e-split", 0)) {
      env.startWorker();
      var out = new ByteArrayOutputStream();
      var played = new SplitScenario(env, E2e.scenario(env), E2e.TIMEOUT).play(new PrintStream(out, true, StandardCharsets.UTF_8));
      String log = out.toString(StandardCharsets.UTF_8);

      assertEquals(List.of(), SplitScenario.problems(played), log);
      assertTrue(SplitScenario.Played.onDemand(played.initial()) >= 3, log);
      // Pins exactly as many as the minimum needs, no more: 10 new gated pods at 30% pin the oldest 3.
      assertEquals(3L, played.pinned().get("initial"), log);
      // The replacements of the interrupted spot node's pods are released unpinned: the 3 pinned pods still make 30%.
      assertEquals(3L, played.pinned().get("afterInterruption"), log);
      // Scaled to 20 (6 required), new pins make up only what the on-demand pods lack.
      assertTrue(played.pinned().get("scaledOut") <= 6, log);
      assertTrue(SplitScenario.Played.onDemand(played.afterInterruption()) >= 3, log);
      assertTrue(SplitScenario.Played.onDemand(played.scaledOut()) >= 6, log);
      assertTrue(SplitScenario.Played.onDemand(played.scaledDown()) >= 3, log);
      assertTrue(played.raisedTo() > SplitScenario.Played.onDemand(played.scaledDown()), log);
      assertTrue(SplitScenario.Played.onDemand(played.raised()) >= played.raisedTo(), log);
      assertTrue(played.rebalanced().size() >= 1, "the raised minimum was met by rebalancing evictions: " + log);
      assertTrue(played.afterInterruption().values().stream().allMatch(t -> t.equals("spot") || t.equals("on-demand")), log);
      E2e.assertInstancesMatchNodes(env);
    }
  }
}
