package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.Offering;
import dev.farrier.activities.cloud.simulated.SimulatedKubelet;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.workflows.activities.AwaitNodeRequest;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.PlanReplacementRequest;
import dev.farrier.workflows.model.NodeClaimRequest;
import dev.farrier.workflows.model.Requirement;
import dev.farrier.workflows.model.Resources;
import dev.farrier.workflows.model.WellKnown;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replacement the planning activity sizes for a consolidation of a spot node, on the real kube-apiserver with the
 * simulated cloud's catalogue: spot offerings under the node's own spot price only, capacity type narrowed to spot, and
 * the cheapest 15 instance types that hold its pods (Karpenter's spot-to-spot rule), not all 60.
 */
class SpotToSpotReplacementIT extends ClusterIT {
  private static final String CLUSTER = SimulatedActivities.CLUSTER;
  private static final String BIG = "m5.4xlarge";

  private SimulatedActivities activities;
  private SimulatedKubelet kubelet;
  private final String replicaSet = KubeTestSupport.unique("small");
  private String claim;
  private String node;

  @BeforeEach
  void start(@TempDir Path cloudDir) {
    activities = new SimulatedActivities(client, cluster, cloudDir);
    kubelet = new SimulatedKubelet(client, activities.cloud).start();
    KubeTestSupport.apply(client, KubeTestSupport.nodePoolYaml(activities.nodePool, activities.nodeClass)
        .replace("values: [\"on-demand\"]", "values: [\"spot\", \"on-demand\"]"));
  }

  @AfterEach
  void stop() {
    KubeTestSupport.deleteQuietly(() -> client.apps().replicaSets().inNamespace("default").withName(replicaSet).delete());
    if (claim != null) {
      activities.claims.deleteNode(new NodeRef(CLUSTER, node, claim));
      activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, claim));
    }
    activities.close();
    kubelet.close();
  }

  @Test
  void aSpotNodeIsReplacedByTheFifteenCheapestSpotTypesUnderItsSpotPrice() {
    claim = KubeTestSupport.unique(activities.nodePool);
    activities.claims.createNodeClaim(new NodeClaimRequest(claim, activities.nodePool, activities.nodeClass, List.of(BIG),
        List.of(Requirement.in(WellKnown.INSTANCE_TYPE_LABEL, List.of(BIG)), Requirement.in(WellKnown.ARCH_LABEL, List.of("amd64")),
            Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of(WellKnown.CAPACITY_SPOT))),
        Resources.of(1000, 1L << 30, 1), Map.of(), List.of(), List.of(), null, "720h", null, List.of()));
    var launched = activities.claims.launchInstance(new NodeClaimRef(CLUSTER, claim));
    node = activities.claims.awaitRegistered(new AwaitNodeRequest(CLUSTER, claim, launched.providerId(), null));
    // A ReplicaSet's pod (one with a controller moves), bound to the node by its template.
    client.apps().replicaSets().inNamespace("default").resource(new ReplicaSetBuilder()
        .withNewMetadata().withName(replicaSet).endMetadata()
        .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", replicaSet).endSelector()
          .withNewTemplate().withNewMetadata().addToLabels("app", replicaSet).endMetadata()
            .withNewSpec().withNodeName(node).withTerminationGracePeriodSeconds(0L)
              .addNewContainer().withName("c").withImage("pause")
                .withNewResources().withRequests(Map.of("cpu", new Quantity("500m"), "memory", new Quantity("256Mi"))).endResources()
              .endContainer()
            .endSpec().endTemplate()
        .endSpec().build()).create();
    KubeTestSupport.awaitTrue("the ReplicaSet's pod on " + node, () -> !client.pods().inNamespace("default").withLabel("app", replicaSet)
        .list().getItems().isEmpty());
    String zone = cluster.getNodeClaim(claim).orElseThrow().getMetadata().getLabels().get(WellKnown.ZONE_LABEL);
    double price = spotPrice(BIG, zone);

    var plan = activities.planning.planReplacement(new PlanReplacementRequest(CLUSTER, claim, node, claim + "-r", price));

    assertNotNull(plan.replacement(), plan.description());
    var types = plan.replacement().instanceTypes();
    assertEquals(15, types.size(), plan.description());
    assertTrue(plan.description().contains("spot-to-spot: the 15 cheapest of"), plan.description());
    assertTrue(plan.replacement().requirements().contains(Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of(WellKnown.CAPACITY_SPOT))),
        plan.replacement().requirements().toString());
    for (String type : types) {
      assertTrue(activities.cloud.instanceTypes().stream().filter(t -> t.name().equals(type)).flatMap(t -> t.offerings().stream())
          .anyMatch(o -> o.capacityType().equals(WellKnown.CAPACITY_SPOT) && o.pricePerHour() < price), type + " has a spot offering under $" + price);
    }
    assertTrue(!types.contains(BIG), "never its own type at its own price");
  }

  private double spotPrice(String type, String zone) {
    return activities.cloud.instanceTypes().stream().filter(t -> t.name().equals(type)).map(InstanceType::offerings)
        .flatMap(List::stream).filter(o -> o.zone().equals(zone) && o.capacityType().equals(WellKnown.CAPACITY_SPOT))
        .mapToDouble(Offering::pricePerHour).findFirst().orElseThrow();
  }
}
