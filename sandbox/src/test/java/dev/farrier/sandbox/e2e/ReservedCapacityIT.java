package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.model.WellKnown;
import dev.farrier.sandbox.ReservedScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's {@code reserved} scenario end to end (simulated cloud, real worker, Kubernetes and Temporal): a
 * reservation of two m5.xlarge and four pods that each need a node: two nodes go into the reservation (capacity type
 * reserved, labelled with its id), two spill over to on-demand, and the reservation is left empty.
 */
class ReservedCapacityIT {
  @Test
  void podsFillTheReservationFirstThenSpillOverToOnDemand() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("reserved"), "e2e-reserved", 0)) {
      env.startWorker();
      var out = new ByteArrayOutputStream();
      var played = new ReservedScenario(env, E2e.scenario(env), E2e.TIMEOUT).play(new PrintStream(out, true, StandardCharsets.UTF_8));

      assertEquals(ReservedScenario.RESERVED, played.reserved(), played.toString());
      assertEquals(ReservedScenario.REPLICAS - ReservedScenario.RESERVED, played.onDemand(), played.toString());
      assertEquals(0, played.availableAfter());
      played.reservationByNode().values().forEach(id -> assertEquals(played.reservation().id(), id));
      played.capacityTypeByNode().forEach((node, type) -> {
        var labels = env.kube().nodes().withName(node).get().getMetadata().getLabels();
        if (WellKnown.CAPACITY_RESERVED.equals(type)) {
          assertEquals("default", labels.get(WellKnown.CAPACITY_RESERVATION_TYPE_LABEL), node);
          assertEquals("false", labels.get(WellKnown.CAPACITY_RESERVATION_INTERRUPTIBLE_LABEL), node);
          assertEquals(ReservedScenario.ZONE, labels.get(WellKnown.ZONE_LABEL), node);
        }
      });
      var claims = E2e.scenario(env).nodeClaims();
      long reservedClaims = claims.stream().filter(c -> WellKnown.CAPACITY_RESERVED.equals(c.getMetadata().getLabels()
          .get(WellKnown.CAPACITY_TYPE_LABEL)) && played.reservation().id().equals(c.getMetadata().getLabels()
          .get(WellKnown.CAPACITY_RESERVATION_ID_LABEL))).count();
      assertEquals(ReservedScenario.RESERVED, reservedClaims, "the NodeClaims carry the reservation's labels too");
      E2e.assertInstancesMatchNodes(env);
    }
  }
}
