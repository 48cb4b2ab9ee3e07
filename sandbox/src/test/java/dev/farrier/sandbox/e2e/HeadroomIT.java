package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.sandbox.HeadroomScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's {@code headroom} scenario end to end (simulated cloud, real worker, kube-scheduler with preemption,
 * kwok and Temporal): a refused farrier.dev/headroom value is named in the NodePool's condition and a Warning Event; a
 * valid one brings up spare nodes with the placeholders Running; a burst runs on them at once, with no node launched
 * for it (the scheduler preempts the placeholders); the displaced placeholders get new nodes; removing the annotation
 * lets the pool consolidate the spare capacity away.
 */
class HeadroomIT {
  @Test
  void aPoolsHeadroomTakesABurstAtOnceAndIsRefilledThenConsolidatedAwayWhenRemoved() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("headroom"), "e2e-headroom", 0)) {
      env.startWorker();
      var out = new ByteArrayOutputStream();
      var played = new HeadroomScenario(env, E2e.scenario(env), E2e.TIMEOUT).play(new PrintStream(out, true, StandardCharsets.UTF_8));

      assertEquals(List.of(), HeadroomScenario.problems(played), out.toString(StandardCharsets.UTF_8));
      assertEquals(Set.of(), played.launchedForBurst(), "no node launched for a pod placed by preemption");
      assertEquals(HeadroomScenario.BURST, played.burstNodes().size());
      E2e.assertInstancesMatchNodes(env);
    }
  }
}
