package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.model.ReplacementResult;
import dev.farrier.model.WellKnown;
import dev.farrier.sandbox.ReservedScenario;
import dev.farrier.sandbox.Sandbox;
import dev.farrier.sandbox.SandboxEnvironment;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A Capacity Block's end end to end: the blueprint's node launched into a one-instance Capacity Block, the simulated
 * cloud ends the block and posts EC2's Capacity Reservation Instance Interruption Warning (real SQS on moto); Farrier
 * drains and replaces the node as it does for a spot interruption, the replacement on-demand (an expiring block takes
 * no launch).
 */
class CapacityBlockEndIT {
  @Test
  void aNodeOfAnEndingCapacityBlockIsDrainedAndReplacedOnDemand() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("capacity-block"), "e2e-capacity-block", 0)) {
      env.startWorker();
      var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(env.cloudDir()).withCluster(env.cluster()));
      var block = cloud.createCapacityReservation("m5.xlarge", "us-east-1a", 1, CapacityReservation.CAPACITY_BLOCK,
          Instant.now().plus(Duration.ofDays(1)), Map.of());
      var scenario = E2e.scenario(env);
      var old = scenario.provision(Sandbox.FROM_VERSION, manifest -> ReservedScenario.selecting(manifest, block.id()));
      var labels = env.kube().nodes().withName(old.node()).get().getMetadata().getLabels();
      assertEquals(WellKnown.CAPACITY_RESERVED, labels.get(WellKnown.CAPACITY_TYPE_LABEL));
      assertEquals(block.id(), labels.get(WellKnown.CAPACITY_RESERVATION_ID_LABEL));
      assertEquals(CapacityReservation.CAPACITY_BLOCK, labels.get(WellKnown.CAPACITY_RESERVATION_TYPE_LABEL));

      var end = env.interruptions().expireCapacityBlock(block.id(), Duration.ofMinutes(2));
      assertEquals(1, end.instances().size());

      String workflowId = scenario.awaitReplacementStarted(old);
      ReplacementResult result = env.temporal().newUntypedWorkflowStub(workflowId)
          .getResult(E2e.TIMEOUT.toSeconds(), TimeUnit.SECONDS, ReplacementResult.class);
      assertEquals("Done", result.outcome());
      var replacement = env.kube().nodes().withName(result.replacementNode()).get().getMetadata().getLabels();
      assertEquals(WellKnown.CAPACITY_ON_DEMAND, replacement.get(WellKnown.CAPACITY_TYPE_LABEL), "an expiring block takes no launch");
      var reasons = env.kube().v1().events().inAnyNamespace().list().getItems().stream()
          .filter(e -> old.node().equals(e.getInvolvedObject().getName())).map(e -> e.getReason() + ": " + e.getMessage()).toList();
      assertTrue(reasons.stream().anyMatch(r -> r.startsWith("Interrupted") && r.contains("CapacityReservationInterruption")),
          "Events on the old node: " + reasons);
    }
  }
}
