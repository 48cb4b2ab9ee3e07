package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.sandbox.OverlayScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's {@code overlay} scenario end to end, on the local stack with a worker: the pod runs on the type a
 * NodeOverlay made cheapest (r5.xlarge at $0.001/h, where m5.large would be chosen on the cloud's prices), and the
 * worker writes each overlay's Ready condition: True for the two that stand, False with reason Conflict, naming the
 * other, for the one of equal weight left out.
 */
class NodeOverlayIT {
  @Test
  void aPodLandsOnTheTypeAnOverlayMadeCheapestAndAConflictIsReported() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("overlay"), "e2e-overlay", 0)) {
      env.startWorker();
      assertTrue(E2e.onDemandPrice(env, "m5.large") < E2e.onDemandPrice(env, OverlayScenario.CHEAPENED_TYPE),
          "without the overlay m5.large is the cheaper type");

      var played = new OverlayScenario(env.kube(), env.cluster(), E2e.TIMEOUT).play();

      assertEquals(OverlayScenario.CHEAPENED_TYPE, played.instanceType(), played.toString());
      assertEquals(List.of("True", "Ready"), played.ready().get(OverlayScenario.CHEAPENED).subList(0, 2), played.toString());
      assertEquals(List.of("True", "Ready"), played.ready().get(OverlayScenario.STANDING).subList(0, 2), played.toString());
      var conflict = played.ready().get(OverlayScenario.CONFLICTING);
      assertEquals(List.of("False", "Conflict"), conflict.subList(0, 2), played.toString());
      assertTrue(conflict.get(2).startsWith("conflicts with NodeOverlay " + OverlayScenario.STANDING + " of the same weight (5)"),
          conflict.get(2));
      E2e.await("a Conflict Event on " + OverlayScenario.CONFLICTING, E2e.TIMEOUT, () -> !conflictEvents(env).isEmpty());
      assertEquals(List.of("Warning NodeOverlay"), conflictEvents(env), "one Warning Event on the overlay left out");
    }
  }

  private static List<String> conflictEvents(SandboxEnvironment env) {
    return env.kube().v1().events().inAnyNamespace().list().getItems().stream()
        .filter(e -> OverlayScenario.CONFLICTING.equals(e.getInvolvedObject().getName()) && "Conflict".equals(e.getReason()))
        .map(e -> e.getType() + " " + e.getInvolvedObject().getKind()).toList();
  }
}
