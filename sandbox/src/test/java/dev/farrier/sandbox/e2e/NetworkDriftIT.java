package dev.farrier.sandbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.CloudCall;
import dev.farrier.activities.cloud.simulated.CloudCallLog;
import dev.farrier.sandbox.DriftScenario;
import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Subnet and security-group drift end to end, on the real worker. The EC2NodeClass's subnet selector changed to leave
 * out the node's subnet: the status loop resolves the new subnets, the planner finds the claim drifted (its recorded
 * subnet is no longer among them) and replaces it in a selected subnet. Then its security-group selector changed to
 * another group: the replacement drifts in turn and is replaced by a node in that group.
 */
class NetworkDriftIT {
  @Test
  void aNodeOutsideTheSelectedSubnetsOrSecurityGroupsIsReplacedByOneInside() throws Exception {
    try (var env = SandboxEnvironment.start(E2e.runDir("network-drift"), "e2e-network-drift", 0)) {
      env.startWorker();
      var scenario = E2e.scenario(env);
      var first = scenario.provision("1.34");
      String subnet = annotation(scenario, first.nodeClaim(), WellKnown.SUBNET_ID_ANNOTATION);
      assertNotNull(subnet, "the launch records the instance's subnet on the claim");
      List<String> others = scenario.resolvedSubnets().stream().filter(id -> !id.equals(subnet)).toList();
      assertFalse(others.isEmpty(), "the simulated VPC has a subnet per zone");

      var moved = scenario.awaitUpgrade(first, scenario.selectSubnets(others));

      assertEquals("Done", moved.result().outcome());
      String newSubnet = annotation(scenario, moved.newNodeClaim(), WellKnown.SUBNET_ID_ANNOTATION);
      assertTrue(others.contains(newSubnet), "the replacement is in " + newSubnet + ", one of " + others);
      assertDriftedBecause(env, first.node(), "subnet " + subnet + " is not among");
      assertOneLaunchAndOneTermination(env, first.at(), Instant.now());

      String groups = annotation(scenario, moved.newNodeClaim(), WellKnown.SECURITY_GROUP_IDS_ANNOTATION);
      var second = new DriftScenario.Provisioned(moved.newNodeClaim(), moved.newNode(), null, moved.newImageId(), Instant.now());
      var regrouped = scenario.awaitUpgrade(second, scenario.selectSecurityGroup(env.cluster() + "-extra"));

      assertEquals("Done", regrouped.result().outcome());
      String newGroups = annotation(scenario, regrouped.newNodeClaim(), WellKnown.SECURITY_GROUP_IDS_ANNOTATION);
      assertTrue(newGroups != null && !newGroups.equals(groups) && !newGroups.contains(","), groups + " -> " + newGroups);
      assertDriftedBecause(env, moved.newNode(), "security groups " + groups + " differ from " + newGroups);
      assertOneLaunchAndOneTermination(env, second.at(), Instant.now());
    }
  }

  private static String annotation(DriftScenario scenario, String claimName, String key) {
    GenericKubernetesResource claim = scenario.nodeClaims().stream().filter(c -> c.getMetadata().getName().equals(claimName))
        .findFirst().orElseThrow();
    return claim.getMetadata().getAnnotations() == null ? null : claim.getMetadata().getAnnotations().get(key);
  }

  private static void assertDriftedBecause(SandboxEnvironment env, String node, String why) {
    var events = env.kube().v1().events().inAnyNamespace().list().getItems().stream()
        .filter(e -> node.equals(e.getInvolvedObject().getName())).map(e -> e.getReason() + ": " + e.getMessage()).toList();
    assertTrue(events.stream().anyMatch(e -> e.startsWith("DisruptionStarted: disrupting via replace: drifted") && e.contains(why)),
        events.toString());
  }

  private static void assertOneLaunchAndOneTermination(SandboxEnvironment env, Instant from, Instant to) throws Exception {
    var calls = new CloudCallLog(env.cloudDir()).read().stream().filter(c -> c.time().isAfter(from) && c.time().isBefore(to)).toList();
    assertEquals(1, calls.stream().filter(c -> c.operation() == CloudCall.Operation.CREATE).count(), calls.toString());
    assertEquals(1, calls.stream().filter(c -> c.operation() == CloudCall.Operation.TERMINATE).count(), calls.toString());
  }
}
