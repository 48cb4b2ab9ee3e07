package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.ClusterRecorder;
import dev.farrier.sandbox.DriftScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** kill -9 of the worker while the old node drains: a new worker finishes the same replacement, exactly once. */
class WorkerCrashIT {
  @Test
  void replacementSurvivesWorkerKilledMidDrain() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("worker-crash"), "e2e-crash", 0)) {
      var first = env.startWorker();
      var scenario = E2e.scenario(env);
      try (var recorder = new ClusterRecorder(env.kube(), DriftScenario.NAMESPACE, DriftScenario.APP)) {
        var old = scenario.provision("1.34");
        var switchedAt = scenario.switchImages("1.35");
        var workflowId = scenario.awaitReplacementStarted(old);
        var replacement = env.temporal().newWorkflowStub(NodeReplacementWorkflow.class, workflowId);
        E2e.await("replacement " + workflowId + " to be draining", Duration.ofMinutes(4),
            () -> "Draining".equals(replacement.progress().phase()));

        first.kill9();
        assertFalse(first.alive());
        env.startWorker();

        var up = scenario.awaitUpgrade(old, switchedAt);
        assertEquals("Done", up.result().outcome());
        int minReady = recorder.minReadySince(old.at());
        assertTrue(minReady >= DriftScenario.MIN_AVAILABLE, "Ready inflate pods fell to " + minReady + ": " + recorder.readyCounts());
        E2e.assertOneLaunchOneTerminate(env, switchedAt);
        E2e.assertInstancesMatchNodes(env);
      }
    }
  }
}
