package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.cloud.simulated.SimulatedKubelet;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodePoolStatus;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.activities.nodepool.RegistrationHealth;
import dev.farrier.activities.status.StatusRefresher;
import dev.farrier.activities.views.ResourceQuantities;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.workflows.activities.AwaitNodeRequest;
import dev.farrier.workflows.activities.NodeClaimActivities;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.RegistrationFailure;
import dev.farrier.workflows.activities.TerminateInstanceRequest;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A NodePool's status as Karpenter's users read it, on the real kube-apiserver: {@code status.nodes} and
 * {@code status.resources} count and sum the pool's launched claims, and {@code NodeRegistrationHealthy} follows its
 * launches.
 */
class NodePoolStatusIT extends ClusterIT {
  private static final String CLUSTER = SimulatedActivities.CLUSTER;

  private SimulatedActivities activities;
  private SimulatedKubelet kubelet;
  private NodeClaimActivities claims;
  private StatusRefresher refresher;
  private String nodePool;
  private final List<String> launched = new ArrayList<>();
  private final List<String> created = new ArrayList<>();

  @BeforeEach
  void start(@TempDir Path cloudDir) {
    activities = new SimulatedActivities(client, cluster, cloudDir);
    claims = activities.claims;
    nodePool = activities.nodePool;
    refresher = new StatusRefresher(cluster, activities.cloud, CLUSTER, Clock.systemUTC());
    kubelet = new SimulatedKubelet(client, activities.cloud).start();
  }

  @AfterEach
  void stop() {
    for (String name : launched) {
      var state = claims.terminateInstance(new TerminateInstanceRequest(CLUSTER, name, null));
      claims.awaitInstanceTerminated(new TerminateInstanceRequest(CLUSTER, name, state.instanceId()));
    }
    for (String name : created) {
      cluster.getNodeClaim(name).ifPresent(c -> {
        if (c.getStatus() != null && c.getStatus().nodeName() != null) {
          claims.deleteNode(new NodeRef(CLUSTER, c.getStatus().nodeName(), name));
        }
      });
      claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, name));
    }
    activities.close();
    kubelet.close();
  }

  private String create(String type) {
    String name = KubeTestSupport.unique(nodePool);
    claims.createNodeClaim(new NodeClaimRequest(name, nodePool, activities.nodeClass, List.of(type),
        List.of(Requirement.in(WellKnown.INSTANCE_TYPE_LABEL, List.of(type)), Requirement.in(WellKnown.ARCH_LABEL, List.of("amd64"))),
        Resources.of(100, 128L << 20, 1), Map.of("intent", nodePool), List.of(), List.of(), "hash-1", null, null, List.of()));
    created.add(name);
    return name;
  }

  private String launch(String type) {
    String name = create(type);
    claims.launchInstance(new NodeClaimRef(CLUSTER, name));
    launched.add(name);
    return name;
  }

  private void register(String name) {
    var providerId = cluster.getNodeClaim(name).orElseThrow().getStatus().providerID();
    var node = claims.awaitRegistered(new AwaitNodeRequest(CLUSTER, name, providerId, null));
    claims.registerNode(new AwaitNodeRequest(CLUSTER, name, providerId, node));
  }

  private NodePoolStatus status() {
    return cluster.getNodePool(nodePool).orElseThrow().getStatus();
  }

  private Condition registrationHealthy() {
    return Conditions.find(status().conditions(), RegistrationHealth.CONDITION).orElseThrow();
  }

  private Resources capacity(String claim) {
    return ResourceQuantities.fromQuantities(cluster.getNodeClaim(claim).orElseThrow().getStatus().capacity());
  }

  @Test
  void nodesAndResourcesCountTheLaunchedClaimsAndSumTheirCapacity() {
    String large = launch("m5.large");
    String xlarge = launch("m5.xlarge");
    create("m5.2xlarge"); // not launched: no capacity yet, as Karpenter does not count it either
    refresher.refresh();

    NodePoolStatus status = status();
    assertEquals(2L, status.nodes());
    assertEquals(new Quantity("2"), status.resources().get("nodes"));
    assertEquals(new Quantity("6"), status.resources().get("cpu"), "an m5.large's 2 vCPUs and an m5.xlarge's 4");
    Resources sum = capacity(large).plus(capacity(xlarge));
    assertEquals(sum.memoryBytes(), ResourceQuantities.fromQuantities(status.resources()).memoryBytes());
    assertEquals(sum.pods(), ResourceQuantities.fromQuantities(status.resources()).pods());

    claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, xlarge));
    refresher.refresh();
    status = status();
    assertEquals(1L, status.nodes(), "a claim being deleted no longer counts");
    assertEquals(new Quantity("2"), status.resources().get("cpu"));
  }

  @Test
  void nodeRegistrationHealthyTurnsFalseAfterTwoFailedLaunchesAndTrueWhenNodesRegisterAgain() {
    assertEquals(List.of("Unknown", "AwaitingReconciliation"), List.of(registrationHealthy().status(), registrationHealthy().reason()),
        "a new pool awaits its first launch");

    register(launch("m5.large"));
    assertEquals(List.of("True", RegistrationHealth.CONDITION), List.of(registrationHealthy().status(), registrationHealthy().reason()));

    claims.recordRegistrationFailure(new RegistrationFailure(CLUSTER, nodePool, "gone-1", true, "RegistrationTimeout", "x"));
    assertEquals("True", registrationHealthy().status(), "one failure of the last four is not enough");
    claims.recordRegistrationFailure(new RegistrationFailure(CLUSTER, nodePool, "gone-2", true, "RegistrationTimeout", "x"));
    Condition failed = registrationHealthy();
    assertEquals(List.of("False", "RegistrationFailed", "Failed to register node"),
        List.of(failed.status(), failed.reason(), failed.message()));
    refresher.refresh();
    assertEquals("False", registrationHealthy().status(), "the status loop leaves it while nothing changed");

    client.genericKubernetesResources("karpenter.sh/v1", "NodePool").withName(nodePool).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"template\":{\"metadata\":{\"labels\":{\"fixed\":\"yes\"}}}}}");
    refresher.refresh();
    assertEquals(List.of("Unknown", "AwaitingReconciliation"), List.of(registrationHealthy().status(), registrationHealthy().reason()),
        "the pool was edited: its old launches no longer count");

    register(launch("m5.large"));
    assertEquals("True", registrationHealthy().status());
    assertEquals(cluster.getNodePool(nodePool).orElseThrow().getMetadata().getGeneration(), registrationHealthy().observedGeneration());
  }
}
