package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.SurgeScenario;
import dev.farrier.workflows.replacement.Blocker;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's {@code surge} scenario end to end on the local stack (a real kube-apiserver, the controller-manager's
 * Deployment controller, kube-scheduler, kwok, Temporal and the worker): a one-replica Deployment under a PDB
 * {@code minAvailable: 1} on a drifting node of a NodePool opted in to surges. With maxSurge 0 the surge is refused
 * (Events, blocker); with maxSurge 1 it is surged: its new pod is Ready on the replacement node before the old one
 * leaves (never zero Ready pods), and the replacement completes.
 */
class SurgeIT {
  @Test
  void aSingleReplicaDeploymentHeldByItsPdbIsSurgedToTheReplacementNodeWithoutAnOutage() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("surge"), "e2e-surge", 0)) {
      var worker = env.startWorker();
      var out = new ByteArrayOutputStream();
      var played = new SurgeScenario(env, E2e.scenario(env), E2e.TIMEOUT).play(new PrintStream(out, true, StandardCharsets.UTF_8));
      String log = out.toString(StandardCharsets.UTF_8);

      assertEquals(Blocker.Kind.SURGE, played.refused().blocker().kind(), log);
      assertTrue(played.refused().blockedBy().startsWith("surge of deployment " + SurgeScenario.DEPLOYMENT
          + " refused: maxSurge 0 resolves to 0 for 1 replica(s)"), played.refused().blockedBy());
      assertEquals("Warning", played.refusedEvents().getFirst().getType());
      assertTrue(played.refusedEvents().stream().allMatch(e -> e.getMessage().contains("maxSurge 0")), log);
      assertTrue(played.startedEvents().stream().anyMatch(e -> e.getInvolvedObject().getKind().equals("Deployment")), log);
      assertTrue(played.startedEvents().stream().anyMatch(e -> e.getInvolvedObject().getKind().equals("Node")), log);

      assertEquals(played.oldPodUid(), played.surgedPod(), "the Deployment carries the mark of the pod it was surged for");
      assertNotNull(played.restartedAt(), "a rollout restart, as kubectl rollout restart writes it");
      assertNotEquals(played.oldPod(), played.newPod());
      assertNotEquals(played.old().node(), played.newNode());
      assertEquals(1, played.minReady(), "the new pod was Ready before the old one left: never no pod Ready\n" + log);
      assertEquals("Done", played.result().outcome(), log);
      try (var lines = Files.lines(worker.log())) {
        assertEquals(0, lines.filter(l -> l.contains("eartbeat timed out")).count(), "an activity outlived its heartbeat");
      }
      E2e.assertInstancesMatchNodes(env);
    }
  }
}
