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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replacement the planning activity sizes for a consolidation, on the real kube-apiserver with the simulated
 * cloud's catalogue. A spot node's: spot offerings under its own spot price only, capacity type narrowed to spot, the
 * cheapest 15 instance types that hold its pods (Karpenter's spot-to-spot rule), not all 60. A multi-node
 * consolidation's: one node for the pods of every node of the group, under the group's summed price.
 */
class ConsolidationReplacementIT extends ClusterIT {
  private static final String CLUSTER = SimulatedActivities.CLUSTER;

  private SimulatedActivities activities;
  private SimulatedKubelet kubelet;
  /** Claim and node names, and the ReplicaSets, to clean up. */
  private final List<List<String>> launched = new ArrayList<>();
  private final List<String> replicaSets = new ArrayList<>();

  @BeforeEach
  void start(@TempDir Path cloudDir) {
    activities = new SimulatedActivities(client, cluster, cloudDir);
    kubelet = new SimulatedKubelet(client, activities.cloud).start();
    KubeTestSupport.apply(client, KubeTestSupport.nodePoolYaml(activities.nodePool, activities.nodeClass)
        .replace("values: [\"on-demand\"]", "values: [\"spot\", \"on-demand\"]"));
  }

  @AfterEach
  void stop() {
    replicaSets.forEach(rs -> KubeTestSupport.deleteQuietly(() -> client.apps().replicaSets().inNamespace("default").withName(rs).delete()));
    for (List<String> claimAndNode : launched) {
      activities.claims.deleteNode(new NodeRef(CLUSTER, claimAndNode.get(1), claimAndNode.getFirst()));
      activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, claimAndNode.getFirst()));
    }
    activities.close();
    kubelet.close();
  }

  @Test
  void aSpotNodeIsReplacedByTheFifteenCheapestSpotTypesUnderItsSpotPrice() {
    var node = launch("m5.4xlarge", WellKnown.CAPACITY_SPOT);
    podOn(node.get(1), "500m");
    double price = price("m5.4xlarge", zoneOf(node.getFirst()), WellKnown.CAPACITY_SPOT);

    var plan = activities.planning.planReplacement(new PlanReplacementRequest(CLUSTER, node.getFirst(), node.get(1),
        node.getFirst() + "-r", price));

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
    assertTrue(!types.contains("m5.4xlarge"), "never its own type at its own price");
  }

  @Test
  void aMultiNodeConsolidationsReplacementHoldsThePodsOfEveryNodeOfTheGroup() {
    var lead = launch("m5.xlarge", WellKnown.CAPACITY_ON_DEMAND);
    var other = launch("m5.xlarge", WellKnown.CAPACITY_ON_DEMAND);
    podOn(lead.get(1), "1500m");
    podOn(other.get(1), "1500m");
    double total = price("m5.xlarge", zoneOf(lead.getFirst()), WellKnown.CAPACITY_ON_DEMAND)
        + price("m5.xlarge", zoneOf(other.getFirst()), WellKnown.CAPACITY_ON_DEMAND);

    var alone = activities.planning.planReplacement(new PlanReplacementRequest(CLUSTER, lead.getFirst(), lead.get(1),
        lead.getFirst() + "-a", total));
    var together = activities.planning.planReplacement(new PlanReplacementRequest(CLUSTER, lead.getFirst(), lead.get(1),
        lead.getFirst() + "-r", total, List.of(other.getFirst())));

    assertEquals(1, alone.reschedulablePods(), alone.description());
    assertEquals(2, together.reschedulablePods(), together.description());
    assertNotNull(together.replacement(), together.description());
    assertEquals(2, together.replacement().pods().size(), "one node for both nodes' pods: " + together.description());
    assertTrue(together.replacement().requests().milliCpu() >= 3000, together.replacement().requests().toString());
  }

  /** A claim of the test's NodePool launched and registered (its status names its node); returns claim and node names. */
  private List<String> launch(String type, String capacityType) {
    var claim = KubeTestSupport.unique(activities.nodePool);
    activities.claims.createNodeClaim(new NodeClaimRequest(claim, activities.nodePool, activities.nodeClass, List.of(type),
        List.of(Requirement.in(WellKnown.INSTANCE_TYPE_LABEL, List.of(type)), Requirement.in(WellKnown.ARCH_LABEL, List.of("amd64")),
            Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of(capacityType))),
        Resources.of(1000, 1L << 30, 1), Map.of(), List.of(), List.of(), null, "720h", null, List.of()));
    var instance = activities.claims.launchInstance(new NodeClaimRef(CLUSTER, claim));
    var node = activities.claims.awaitRegistered(new AwaitNodeRequest(CLUSTER, claim, instance.providerId(), null));
    activities.claims.registerNode(new AwaitNodeRequest(CLUSTER, claim, instance.providerId(), node));
    launched.add(List.of(claim, node));
    return List.of(claim, node);
  }

  /** A ReplicaSet's pod (one with a controller moves), bound to the node by its template. */
  private void podOn(String node, String cpu) {
    String name = KubeTestSupport.unique("small");
    replicaSets.add(name);
    client.apps().replicaSets().inNamespace("default").resource(new ReplicaSetBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", name).endSelector()
          .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
            .withNewSpec().withNodeName(node).withTerminationGracePeriodSeconds(0L)
              .addNewContainer().withName("c").withImage("pause")
                .withNewResources().withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity("256Mi"))).endResources()
              .endContainer()
            .endSpec().endTemplate()
        .endSpec().build()).create();
    KubeTestSupport.awaitTrue("the ReplicaSet's pod on " + node, () -> !client.pods().inNamespace("default").withLabel("app", name)
        .list().getItems().isEmpty());
  }

  private String zoneOf(String claim) {
    return cluster.getNodeClaim(claim).orElseThrow().getMetadata().getLabels().get(WellKnown.ZONE_LABEL);
  }

  private double price(String type, String zone, String capacityType) {
    return activities.cloud.instanceTypes().stream().filter(t -> t.name().equals(type)).map(InstanceType::offerings)
        .flatMap(List::stream).filter(o -> o.zone().equals(zone) && o.capacityType().equals(capacityType))
        .mapToDouble(Offering::pricePerHour).findFirst().orElseThrow();
  }
}
