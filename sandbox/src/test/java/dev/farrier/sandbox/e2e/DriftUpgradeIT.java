package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.ClusterRecorder;
import dev.farrier.sandbox.DriftScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import org.junit.jupiter.api.Test;

/** The drift blueprint end to end on the real local stack with the worker in its own JVM. */
class DriftUpgradeIT {
  @Test
  void driftedNodeIsReplacedReplacementFirstWithinThePdb() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("drift-upgrade"), "e2e-drift", 0)) {
      env.startWorker();
      var scenario = E2e.scenario(env);
      try (var recorder = new ClusterRecorder(env.kube(), DriftScenario.NAMESPACE, DriftScenario.APP)) {
        var old = scenario.provision("1.34");
        E2e.assertNodeClassResolved(env);
        var up = scenario.upgrade(old, "1.35");

        assertEquals("Done", up.result().outcome());
        assertNotEquals(old.imageId(), up.newImageId(), "the replacement runs the new version's AMI");
        // (1) the replacement was Ready before the old node was cordoned
        var newReady = recorder.when(up.newNode(), "ready").orElseThrow();
        var oldCordoned = recorder.when(old.node(), "cordoned").orElseThrow();
        assertTrue(newReady.isBefore(oldCordoned), "replacement Ready at " + newReady + " but old node cordoned at " + oldCordoned);
        // (2) Ready pods never below the PDB's minAvailable, sampled on every change
        int minReady = recorder.minReadySince(old.at());
        assertTrue(minReady >= DriftScenario.MIN_AVAILABLE, "Ready inflate pods fell to " + minReady + ": " + recorder.readyCounts());
        // (3) and (4)
        E2e.assertOneLaunchOneTerminate(env, up.switchedAt());
        E2e.assertInstancesMatchNodes(env);
      }
    }
  }
}
