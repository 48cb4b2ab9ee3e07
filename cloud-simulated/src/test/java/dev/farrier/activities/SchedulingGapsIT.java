package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.SimulatedKubelet;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PodRef;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.workflows.activities.AwaitNodeRequest;
import dev.farrier.workflows.activities.NodeClaimActivities;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.PlanProvisioningRequest;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.workflows.activities.TerminateInstanceRequest;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodFluent;
import io.fabric8.kubernetes.api.model.Quantity;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduling constraints the planner honours beyond requests and selectors, from the objects the planning activity
 * reads on the real kube-apiserver: host ports, CSI volume limits of a node's CSINode, and pods nominated to a claim
 * still launching. The pods name another scheduler, so they stay pending whatever runs.
 */
class SchedulingGapsIT extends ClusterIT {
  private static final String CLUSTER = SimulatedActivities.CLUSTER;

  private SimulatedActivities activities;
  private SimulatedKubelet kubelet;
  private NodeClaimActivities claims;
  private PlanningActivities planning;
  private String nodePool;

  @BeforeEach
  void start(@TempDir Path cloudDir) {
    activities = new SimulatedActivities(client, cluster, cloudDir);
    claims = activities.claims;
    planning = activities.planning;
    nodePool = activities.nodePool;
    kubelet = new SimulatedKubelet(client, activities.cloud).start();
  }

  @AfterEach
  void stop() {
    activities.close();
    kubelet.close();
  }

  private Pod pod(String prefix, UnaryOperator<PodFluent<PodBuilder>.SpecNested<PodBuilder>> spec) {
    var builder = new PodBuilder().withNewMetadata().withName(KubeTestSupport.unique(prefix)).withNamespace("default")
        .withLabels(Map.of("app", prefix)).endMetadata()
        .withNewSpec().withSchedulerName("not-the-kube-scheduler").withNodeSelector(Map.of("intent", nodePool));
    return client.pods().resource(spec.apply(builder).endSpec().build()).create();
  }

  private static PodFluent<PodBuilder>.SpecNested<PodBuilder> container(PodFluent<PodBuilder>.SpecNested<PodBuilder> spec,
      Integer hostPort) {
    var c = spec.addNewContainer().withName("c").withImage("pause").withNewResources()
        .withRequests(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("128Mi"))).endResources();
    if (hostPort != null) {
      c = c.addNewPort().withContainerPort(hostPort).withHostPort(hostPort).endPort();
    }
    return c.endContainer();
  }

  private static PodFluent<PodBuilder>.SpecNested<PodBuilder> withClaim(PodFluent<PodBuilder>.SpecNested<PodBuilder> spec, String claim) {
    return spec.addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName(claim).endPersistentVolumeClaim()
        .endVolume();
  }

  private static PodRef ref(Pod pod) {
    return new PodRef(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), pod.getMetadata().getUid());
  }

  private ProvisioningPlan plan(String batch, Pod... pods) {
    return planning.planProvisioning(new PlanProvisioningRequest(CLUSTER, batch, List.of(pods).stream().map(SchedulingGapsIT::ref).toList()));
  }

  private NodeClaimRequest claim(String name, List<Requirement> more, List<PodRef> planned) {
    List<Requirement> requirements = new java.util.ArrayList<>(List.of(Requirement.in(WellKnown.INSTANCE_TYPE_LABEL, List.of("m5.large")),
        Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of(WellKnown.CAPACITY_ON_DEMAND))));
    requirements.addAll(more);
    return new NodeClaimRequest(name, nodePool, activities.nodeClass, List.of("m5.large"), requirements, Resources.of(200, 256L << 20, 2),
        Map.of("intent", nodePool), List.of(), List.of(), "hash-1", null, null, planned);
  }

  @Test
  void twoPodsAskingTheSameHostPortArePlannedOntoTwoNodes() {
    var a = pod("agent", s -> container(s, 9100));
    var b = pod("agent", s -> container(s, 9100));
    var other = pod("web", s -> container(s, 8080));
    try {
      var plan = plan("batch-ports", a, b, other);
      assertEquals(2, plan.claims().size(), plan.toString());
      assertTrue(plan.claims().stream().allMatch(c -> c.pods().stream().filter(p -> p.name().startsWith("agent")).count() == 1),
          "one agent per node: " + plan);
      assertEquals(3, plan.claims().stream().mapToInt(c -> c.pods().size()).sum(), plan.toString());
    } finally {
      List.of(a, b, other).forEach(p -> client.pods().resource(p).withGracePeriod(0).delete());
    }
  }

  @Test
  void aNodesCsiNodeCountLimitsTheVolumesPlannedOntoIt() {
    var name = KubeTestSupport.unique(nodePool);
    claims.createNodeClaim(claim(name, List.of(), List.of()));
    var launched = claims.launchInstance(new NodeClaimRef(CLUSTER, name));
    var nodeName = claims.awaitRegistered(new AwaitNodeRequest(CLUSTER, name, launched.providerId(), null));
    var registered = new AwaitNodeRequest(CLUSTER, name, launched.providerId(), nodeName);
    claims.registerNode(registered);
    claims.awaitInitialized(registered);
    var storageClass = KubeTestSupport.unique("ebs");
    var attached = KubeTestSupport.unique("attached");
    var fresh = KubeTestSupport.unique("fresh");
    KubeTestSupport.apply(client, """
        apiVersion: storage.k8s.io/v1
        kind: CSINode
        metadata: {name: %s}
        spec:
          drivers:
            - {name: ebs.csi.aws.com, nodeID: %s, allocatable: {count: 1}}
        ---
        apiVersion: storage.k8s.io/v1
        kind: StorageClass
        metadata: {name: %s}
        provisioner: ebs.csi.aws.com
        volumeBindingMode: WaitForFirstConsumer
        ---
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: %s, namespace: default}
        spec: {accessModes: [ReadWriteOnce], storageClassName: %s, resources: {requests: {storage: 1Gi}}}
        ---
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: %s, namespace: default}
        spec: {accessModes: [ReadWriteOnce], storageClassName: %s, resources: {requests: {storage: 1Gi}}}
        """.formatted(nodeName, nodeName, storageClass, attached, storageClass, fresh, storageClass));
    var holder = pod("holder", s -> withClaim(container(s.withNodeName(nodeName), null), attached));
    var sharing = pod("sharing", s -> withClaim(container(s, null), attached));
    var another = pod("another", s -> withClaim(container(s, null), fresh));
    try {
      var plan = plan("batch-volumes", sharing, another);
      var onNode = plan.onExisting().stream().filter(e -> e.node().equals(nodeName)).flatMap(e -> e.pods().stream())
          .map(PodRef::name).toList();
      assertEquals(List.of(sharing.getMetadata().getName()), onNode, "the volume it shares is attached there already: " + plan);
      assertEquals(List.of(another.getMetadata().getName()), plan.claims().stream().flatMap(c -> c.pods().stream()).map(PodRef::name).toList(),
          "a second EBS volume passes the CSINode's count of 1, so a new node: " + plan);
    } finally {
      List.of(holder, sharing, another).forEach(p -> client.pods().resource(p).withGracePeriod(0).delete());
      client.storage().v1().csiNodes().withName(nodeName).delete();
      var state = claims.terminateInstance(new TerminateInstanceRequest(CLUSTER, name, null));
      claims.awaitInstanceTerminated(new TerminateInstanceRequest(CLUSTER, name, state.instanceId()));
      claims.deleteNode(new NodeRef(CLUSTER, nodeName, name));
      claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, name));
    }
  }

  @Test
  void aPodNominatedToALaunchingClaimCountsInItsZoneForTheNextBatch() {
    UnaryOperator<PodFluent<PodBuilder>.SpecNested<PodBuilder>> spread = s -> container(s, null).addNewTopologySpreadConstraint()
        .withMaxSkew(1).withTopologyKey(WellKnown.ZONE_LABEL).withWhenUnsatisfiable("DoNotSchedule")
        .withNewLabelSelector().withMatchLabels(Map.of("app", "web")).endLabelSelector().endTopologySpreadConstraint();
    var first = pod("web", spread);
    var second = pod("web", spread);
    var name = KubeTestSupport.unique(nodePool);
    claims.createNodeClaim(claim(name, List.of(Requirement.in(WellKnown.ZONE_LABEL, List.of("us-east-1a"))), List.of(ref(first))));
    try {
      var plan = plan("batch-next", second);
      assertEquals(List.of(), plan.onExisting(), "the launching claim's zone already has the first replica: " + plan);
      assertEquals(1, plan.claims().size(), plan.toString());
      var zones = plan.claims().getFirst().requirements().stream().filter(r -> r.key().equals(WellKnown.ZONE_LABEL)).findFirst()
          .orElseThrow().values();
      assertEquals(1, zones.size(), plan.toString());
      assertNotEquals("us-east-1a", zones.getFirst(), plan.toString());
    } finally {
      List.of(first, second).forEach(p -> client.pods().resource(p).withGracePeriod(0).delete());
      claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, name));
    }
  }
}
