package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.Offering;
import dev.farrier.activities.cloud.simulated.SimulatedKubelet;
import dev.farrier.activities.crd.NodeOverlay;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.activities.metrics.ConsolidationMetrics;
import dev.farrier.workflows.activities.AwaitNodeRequest;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.PlanReplacementRequest;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.workflows.activities.PlanProvisioningRequest;
import dev.farrier.model.PodRef;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
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
 * Consolidation as the planning activity decides it, on the real kube-apiserver (with its scheduler) and the simulated
 * cloud's catalogue: it waits while a pending pod needs a new node. And the replacement it sizes. A spot node's: spot offerings under its own spot price only, capacity type narrowed to spot, the
 * cheapest 15 instance types that hold its pods (Karpenter's spot-to-spot rule), not all 60. A multi-node
 * consolidation's: one node for the pods of every node of the group, under the group's summed price. And a NodePool of
 * policy {@code Balanced}: a move goes ahead only when its score reaches the threshold, the score read from the pods'
 * deletion costs, said in the decision and the DisruptionBlocked Event, and counted in Karpenter's consolidation metrics.
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

  /**
   * Consolidation and the replacement it plans weigh the prices NodeOverlays give: the node's own (an m5.xlarge priced
   * $0.001/h has nothing cheaper) and its replacement's types (an r5.large priced $0.0005/h ranks first).
   */
  @Test
  void consolidationAndItsReplacementWeighTheOverlaidPrices() {
    var node = launch("m5.xlarge", WellKnown.CAPACITY_ON_DEMAND);
    initialize(node);
    podOn(node.get(1), "500m");
    List<String> ours = List.of(node.getFirst());
    assertEquals(ours, consolidating(ours), "on the cloud's prices a cheaper node holds its pod: " + decisions(ours));
    double ceiling = price("m5.xlarge", zoneOf(node.getFirst()), WellKnown.CAPACITY_ON_DEMAND);
    List<String> overlays = List.of(KubeTestSupport.unique("m5-cheap"), KubeTestSupport.unique("r5-cheaper"));
    try {
      KubeTestSupport.apply(client, KubeTestSupport.nodeOverlayYaml(overlays.getFirst(), 1, activities.nodePool, "m5.xlarge", "price: \"0.001\""));

      assertEquals(List.of(), consolidating(ours), decisions(ours).toString());
      assertTrue(decisions(ours).getFirst().contains("not cheaper: no node under its price of $0.0010/h"), decisions(ours).toString());

      KubeTestSupport.apply(client, KubeTestSupport.nodeOverlayYaml(overlays.get(1), 1, activities.nodePool, "r5.large", "price: \"0.0005\""));

      assertEquals(ours, consolidating(ours), decisions(ours).toString());
      assertTrue(decisions(ours).getFirst().contains("replace with a cheaper node: $0.0010/h to $0.0005/h (r5.large)"),
          decisions(ours).toString());
      var plan = activities.planning.planReplacement(new PlanReplacementRequest(CLUSTER, node.getFirst(), node.get(1),
          node.getFirst() + "-r", ceiling));
      assertNotNull(plan.replacement(), plan.description());
      assertEquals("r5.large", plan.replacement().instanceTypes().getFirst(), plan.description());
    } finally {
      overlays.forEach(o -> client.resources(NodeOverlay.class).withName(o).delete());
    }
  }

  @Test
  void noNodeIsConsolidatedWhileAPendingPodNeedsANewNodeUnlessAClaimHoldsRoomForItAndDaemonSetPodsNeverDo() {
    var first = launch("m5.xlarge", WellKnown.CAPACITY_ON_DEMAND);
    var second = launch("m5.xlarge", WellKnown.CAPACITY_ON_DEMAND);
    initialize(first);
    initialize(second);
    podOn(first.get(1), "500m");
    podOn(second.get(1), "500m");
    List<String> ours = List.of(first.getFirst(), second.getFirst());
    assertEquals(1, consolidating(ours).size(), "one of two half-empty nodes goes: " + decisions(ours));

    // A DaemonSet whose pods do not fit on these nodes: they stay pending, each tied to its node by its node affinity's
    // matchFields, and no new node is theirs.
    String daemonSet = KubeTestSupport.unique("greedy");
    client.apps().daemonSets().inNamespace("default").resource(new DaemonSetBuilder()
        .withNewMetadata().withName(daemonSet).endMetadata()
        .withNewSpec().withNewSelector().addToMatchLabels("app", daemonSet).endSelector()
          .withNewTemplate().withNewMetadata().addToLabels("app", daemonSet).endMetadata()
            .withNewSpec().addNewContainer().withName("c").withImage("pause")
              .withNewResources().withRequests(Map.of("cpu", new Quantity("5"))).endResources().endContainer()
            .endSpec().endTemplate()
        .endSpec().build()).create();
    try {
      KubeTestSupport.awaitTrue("the DaemonSet's pod on " + first.get(1) + " is pending", () -> cluster.listPendingPods().stream()
          .anyMatch(p -> daemonSet.equals(p.getMetadata().getLabels().get("app"))));
      List<Pod> greedy = cluster.listPendingPods().stream().filter(p -> daemonSet.equals(p.getMetadata().getLabels().get("app"))).toList();
      var plan = activities.planning.planProvisioning(new PlanProvisioningRequest(CLUSTER, KubeTestSupport.unique("batch"),
          greedy.stream().map(ConsolidationReplacementIT::ref).toList()));
      assertEquals(List.of(), plan.claims(), "no node for a DaemonSet's pod");
      assertEquals(List.of(), plan.unschedulable(), "nor a FailedScheduling of Farrier's: the pod is its node's, as Karpenter leaves it");
      assertEquals(1, consolidating(ours).size(), "pending DaemonSet pods do not hold consolidation: " + decisions(ours));
    } finally {
      client.apps().daemonSets().inNamespace("default").withName(daemonSet).delete();
    }

    // A pod of the NodePool that fits on no node there is: it needs a new one, and consolidation waits for it.
    String big = KubeTestSupport.unique("big");
    Pod pending = client.pods().inNamespace("default").resource(new PodBuilder()
        .withNewMetadata().withName(big).endMetadata()
        .withNewSpec().withNodeSelector(Map.of("intent", activities.nodePool)).withTerminationGracePeriodSeconds(0L)
          .addNewContainer().withName("c").withImage("pause")
            .withNewResources().withRequests(Map.of("cpu", new Quantity("6"))).endResources().endContainer()
        .endSpec().build()).create();
    try {
      KubeTestSupport.awaitTrue(big + " is pending", () -> cluster.listPendingPods().stream().anyMatch(p -> p.getMetadata().getName().equals(big)));
      assertEquals(List.of(), consolidating(ours), decisions(ours).toString());
      assertTrue(decisions(ours).stream().allMatch(d -> d.contains("underutilized but pending pod default/" + big
          + " needs a new node: consolidation waits until it has one")), decisions(ours).toString());

      // A claim launched for it holds room for it: it is the scheduler's to bind, and consolidation goes on.
      String claim = KubeTestSupport.unique(activities.nodePool);
      activities.claims.createNodeClaim(new NodeClaimRequest(claim, activities.nodePool, activities.nodeClass, List.of("m5.2xlarge"),
          List.of(Requirement.in(WellKnown.INSTANCE_TYPE_LABEL, List.of("m5.2xlarge")), Requirement.in(WellKnown.ARCH_LABEL, List.of("amd64")),
              Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of(WellKnown.CAPACITY_ON_DEMAND))),
          Resources.of(6000, 1L << 30, 1), Map.of(), List.of(), List.of(), null, "720h", null, List.of(ref(pending))));
      try {
        assertEquals(1, consolidating(ours).size(), decisions(ours).toString());
      } finally {
        KubeTestSupport.deleteQuietly(() -> activities.claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, claim)));
      }
    } finally {
      KubeTestSupport.deleteQuietly(() -> client.pods().inNamespace("default").withName(big).delete());
    }
  }

  private static PodRef ref(Pod pod) {
    return new PodRef(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), pod.getMetadata().getUid());
  }

  /** Of these claims, those the planner would consolidate now. */
  private List<String> consolidating(List<String> claims) {
    return activities.planning.planDisruption(new PlanDisruptionRequest(CLUSTER, null, null, false, PlanDisruptionRequest.Purpose.PREVIEW))
        .commands().stream().map(DisruptionCommand::nodeClaim).filter(claims::contains).toList();
  }

  @Test
  void aBalancedPoolKeepsANodeWhoseMoveScoresBelowTheThresholdAndConsolidatesItOnceItPasses() {
    // a (m5.xlarge) could go, its pod fitting on b (m5.2xlarge, held by a do-not-disrupt pod): it saves a third of the
    // pool's price (the m5.2xlarge costs twice the m5.xlarge). Its pod's deletion cost 2^30 makes it cost 1 + 8 to move:
    // with the node's own 1, a is 10 of the pool's 12 (b: 1 + 1 pod), 83.3%: score 0.333 / 0.833 = 0.40 < 0.5.
    KubeTestSupport.apply(client, poolWithPolicy("Balanced"));
    var a = launch("m5.xlarge", WellKnown.CAPACITY_ON_DEMAND);
    var b = launch("m5.2xlarge", WellKnown.CAPACITY_ON_DEMAND);
    initialize(a);
    initialize(b);
    assertEquals(2 * price("m5.xlarge", zoneOf(a.getFirst()), WellKnown.CAPACITY_ON_DEMAND),
        price("m5.2xlarge", zoneOf(b.getFirst()), WellKnown.CAPACITY_ON_DEMAND), 1e-9, "the fractions below assume it");
    String costly = podOn(a.get(1), "500m", Map.of("controller.kubernetes.io/pod-deletion-cost", String.valueOf(1 << 30)));
    podOn(b.get(1), "5", Map.of(WellKnown.DO_NOT_DISRUPT_ANNOTATION, "true"));
    List<String> ours = List.of(a.getFirst(), b.getFirst());
    String below = "Balanced: score 0.40 below threshold 0.50 (saves 33.3% of the NodePool's price for 83.3% of its disruption"
        + " cost), even deleted outright";

    var kept = activities.planning.planDisruption(new PlanDisruptionRequest(CLUSTER, null, null, false, PlanDisruptionRequest.Purpose.ROUND));
    assertEquals(List.of(), kept.commands().stream().map(DisruptionCommand::nodeClaim).filter(ours::contains).toList(), kept.toString());
    assertTrue(decisions(List.of(a.getFirst())).getFirst().endsWith("underutilized but " + below), decisions(ours).toString());
    KubeTestSupport.awaitTrue("the DisruptionBlocked Event on " + a.get(1) + " says the score", () -> client.v1().events().inAnyNamespace()
        .withField("involvedObject.name", a.get(1)).list().getItems().stream()
        .anyMatch(e -> "DisruptionBlocked".equals(e.getReason()) && e.getMessage().equals("Cannot disrupt Node: underutilized, but " + below)));

    // WhenEmptyOrUnderutilized does not score: the same node goes.
    KubeTestSupport.apply(client, poolWithPolicy("WhenEmptyOrUnderutilized"));
    KubeTestSupport.awaitTrue("the NodePool is WhenEmptyOrUnderutilized", () -> "WhenEmptyOrUnderutilized".equals(
        cluster.getNodePool(activities.nodePool).orElseThrow().getSpec().disruption().consolidationPolicy()));
    var unscored = activities.planning.planDisruption(new PlanDisruptionRequest(CLUSTER, null, null, false, PlanDisruptionRequest.Purpose.ROUND));
    assertEquals(List.of(a.getFirst()), unscored.commands().stream().map(DisruptionCommand::nodeClaim).filter(ours::contains).toList(),
        unscored.toString());
    assertEquals(1.0, moves("approved", "WhenEmptyOrUnderutilized"), "the move is counted, approved, unscored");

    // Balanced again, the pod now at the default cost: a is 2 of 4, 50%: score 0.333 / 0.5 = 0.67, the node goes.
    KubeTestSupport.apply(client, poolWithPolicy("Balanced"));
    KubeTestSupport.awaitTrue("the NodePool is Balanced", () -> "Balanced".equals(
        cluster.getNodePool(activities.nodePool).orElseThrow().getSpec().disruption().consolidationPolicy()));
    client.apps().replicaSets().inNamespace("default").withName(costly).delete();
    KubeTestSupport.awaitTrue("the costly pod is gone", () -> client.pods().inNamespace("default").withLabel("app", costly).list().getItems().isEmpty());
    podOn(a.get(1), "500m", Map.of());
    var passes = activities.planning.planDisruption(new PlanDisruptionRequest(CLUSTER, null, null, false, PlanDisruptionRequest.Purpose.ROUND));
    var command = passes.commands().stream().filter(c -> c.nodeClaim().equals(a.getFirst())).findFirst()
        .orElseThrow(() -> new AssertionError(passes.toString()));
    assertTrue(command.detail().endsWith("; Balanced: score 0.67 reaches threshold 0.50 (saves 33.3% of the NodePool's price for"
        + " 50.0% of its disruption cost)"), command.detail());
    assertEquals(1.0, moves("approved", "Balanced"));
    var score = activities.meters.find(ConsolidationMetrics.SCORE).tags("decision", "approved", "nodepool", activities.nodePool).summary();
    assertNotNull(score, "karpenter_consolidation_score recorded");
    assertEquals(1, score.count());
    assertEquals(2.0 / 3, score.totalAmount(), 1e-6);
  }

  private String poolWithPolicy(String policy) {
    return KubeTestSupport.nodePoolYaml(activities.nodePool, activities.nodeClass)
        + "  disruption:\n    consolidationPolicy: " + policy + "\n    consolidateAfter: 0s\n";
  }

  private double moves(String decision, String policy) {
    var counter = activities.meters.find(ConsolidationMetrics.MOVES).tags("decision", decision, "nodepool", activities.nodePool,
        "policy", policy).counter();
    return counter == null ? 0 : counter.count();
  }

  private List<String> decisions(List<String> claims) {
    return activities.planning.planDisruption(new PlanDisruptionRequest(CLUSTER, null, null, false, PlanDisruptionRequest.Purpose.PREVIEW))
        .decisions().stream().filter(d -> claims.contains(d.nodeClaim())).map(CandidateDecision::reason).toList();
  }

  private void initialize(List<String> claimAndNode) {
    var claim = cluster.getNodeClaim(claimAndNode.getFirst()).orElseThrow();
    activities.claims.awaitInitialized(new AwaitNodeRequest(CLUSTER, claimAndNode.getFirst(), claim.getStatus().providerID(),
        claimAndNode.get(1)));
  }

  /**
   * A claim of the test's NodePool (with its current hash: not drifted) launched and registered (its status names its
   * node); returns claim and node names.
   */
  private List<String> launch(String type, String capacityType) {
    var claim = KubeTestSupport.unique(activities.nodePool);
    activities.claims.createNodeClaim(new NodeClaimRequest(claim, activities.nodePool, activities.nodeClass, List.of(type),
        List.of(Requirement.in(WellKnown.INSTANCE_TYPE_LABEL, List.of(type)), Requirement.in(WellKnown.ARCH_LABEL, List.of("amd64")),
            Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of(capacityType))),
        Resources.of(1000, 1L << 30, 1), Map.of(), List.of(), List.of(), NodePoolHash.of(cluster.getNodePool(activities.nodePool).orElseThrow()),
        "720h", null, List.of()));
    var instance = activities.claims.launchInstance(new NodeClaimRef(CLUSTER, claim));
    var node = activities.claims.awaitRegistered(new AwaitNodeRequest(CLUSTER, claim, instance.providerId(), null));
    activities.claims.registerNode(new AwaitNodeRequest(CLUSTER, claim, instance.providerId(), node));
    launched.add(List.of(claim, node));
    return List.of(claim, node);
  }

  /** A ReplicaSet's pod (one with a controller moves), bound to the node by its template. */
  private void podOn(String node, String cpu) {
    podOn(node, cpu, Map.of());
  }

  /** As above, the pod annotated with {@code annotations}; returns the ReplicaSet's name. */
  private String podOn(String node, String cpu, Map<String, String> annotations) {
    String name = KubeTestSupport.unique("small");
    replicaSets.add(name);
    client.apps().replicaSets().inNamespace("default").resource(new ReplicaSetBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withReplicas(1).withNewSelector().addToMatchLabels("app", name).endSelector()
          .withNewTemplate().withNewMetadata().addToLabels("app", name).addToAnnotations(annotations).endMetadata()
            .withNewSpec().withNodeName(node).withTerminationGracePeriodSeconds(0L)
              .addNewContainer().withName("c").withImage("pause")
                .withNewResources().withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity("256Mi"))).endResources()
              .endContainer()
            .endSpec().endTemplate()
        .endSpec().build()).create();
    KubeTestSupport.awaitTrue("the ReplicaSet's pod on " + node, () -> !client.pods().inNamespace("default").withLabel("app", name)
        .list().getItems().isEmpty());
    return name;
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
