package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.CloudCall;
import dev.farrier.activities.cloud.simulated.CloudCallLog;
import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.workflows.model.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Subnet drift end to end, on the real worker: the EC2NodeClass's subnet selector changed to leave out the subnet the
 * node was launched in, the status loop resolves the new subnets, the planner finds the claim drifted (its recorded
 * subnet is no longer among them) and replaces it, the replacement launched in one of the selected subnets.
 */
class SubnetDriftIT {
  @Test
  void aNodeWhoseSubnetIsNoLongerSelectedIsReplacedByOneInASelectedSubnet() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("subnet-drift"), "e2e-subnet-drift", 0)) {
      env.startWorker();
      var scenario = E2e.scenario(env);
      var first = scenario.provision("1.34");
      String subnet = subnetOf(claim(scenario.nodeClaims(), first.nodeClaim()));
      assertNotNull(subnet, "the launch records the instance's subnet on the claim");
      List<String> others = scenario.resolvedSubnets().stream().filter(id -> !id.equals(subnet)).toList();
      assertFalse(others.isEmpty(), "the simulated VPC has a subnet per zone");

      var upgraded = scenario.awaitUpgrade(first, scenario.selectSubnets(others));

      assertEquals("Done", upgraded.result().outcome());
      String moved = subnetOf(claim(scenario.nodeClaims(), upgraded.newNodeClaim()));
      assertTrue(others.contains(moved), "the replacement is in " + moved + ", one of " + others);
      var events = env.kube().v1().events().inAnyNamespace().list().getItems().stream()
          .filter(e -> first.node().equals(e.getInvolvedObject().getName())).map(e -> e.getReason() + ": " + e.getMessage()).toList();
      assertTrue(events.stream().anyMatch(e -> e.startsWith("DisruptionStarted: disrupting via replace: drifted")
          && e.contains("subnet " + subnet + " is not among")), events.toString());
      var calls = new CloudCallLog(env.cloudDir()).read().stream().filter(c -> c.time().isAfter(first.at())).toList();
      assertEquals(1, calls.stream().filter(c -> c.operation() == CloudCall.Operation.CREATE).count(), calls.toString());
      assertEquals(1, calls.stream().filter(c -> c.operation() == CloudCall.Operation.TERMINATE).count(), calls.toString());
    }
  }

  private static GenericKubernetesResource claim(List<GenericKubernetesResource> claims, String name) {
    return claims.stream().filter(c -> c.getMetadata().getName().equals(name)).findFirst().orElseThrow();
  }

  private static String subnetOf(GenericKubernetesResource claim) {
    return claim.getMetadata().getAnnotations() == null ? null : claim.getMetadata().getAnnotations().get(WellKnown.SUBNET_ID_ANNOTATION);
  }
}
