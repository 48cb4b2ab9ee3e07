package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.simulated.CloudCall;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedKubelet;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.disruption.ReplacementTracker;
import dev.farrier.activities.interruption.InterruptionActivitiesImpl;
import dev.farrier.activities.kube.Cluster;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.activities.kube.PodEvent;
import dev.farrier.activities.planning.PlanningActivitiesImpl;
import dev.farrier.activities.status.StatusRefresher;
import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.activities.AwaitNodeRequest;
import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.workflows.activities.NodeClaimActivities;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.PlanProvisioningRequest;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.workflows.activities.TerminateInstanceRequest;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PodRef;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import dev.farrier.workflows.activities.InterruptionKind;
import dev.farrier.workflows.activities.ResolveInterruptionRequest;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The activity implementations on the real kube-apiserver with the simulated cloud and its kubelet (kwok keeps the
 * nodes Ready), run in Temporal's activity test environment so heartbeats and failures behave as in a worker.
 */
class ActivitiesIT extends ClusterIT {
  private static final String CLUSTER = SimulatedActivities.CLUSTER;

  private SimulatedCloud cloud;
  private SimulatedKubelet kubelet;
  private SimulatedActivities activities;
  private NodeClaimActivities claims;
  private PlanningActivities planning;
  private String nodeClass;
  private String nodePool;

  @BeforeEach
  void start(@TempDir Path cloudDir) {
    activities = new SimulatedActivities(client, cluster, cloudDir);
    cloud = activities.cloud;
    claims = activities.claims;
    planning = activities.planning;
    nodeClass = activities.nodeClass;
    nodePool = activities.nodePool;
    kubelet = new SimulatedKubelet(client, cloud).start();
  }

  @AfterEach
  void stop() {
    activities.close();
    kubelet.close();
  }

  private NodeClaimRequest claim(String name) {
    return new NodeClaimRequest(name, nodePool, nodeClass, List.of("m5.large", "m5.xlarge"),
        List.of(Requirement.in(WellKnown.INSTANCE_TYPE_LABEL, List.of("m5.large", "m5.xlarge")),
            Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of(WellKnown.CAPACITY_ON_DEMAND))),
        Resources.of(1000, 1L << 30, 1), Map.of("intent", nodePool), List.of(), List.of(), "hash-1", null, null, List.of());
  }

  @Test
  void aClaimLaunchesOnceRegistersInitializesAndIsCleanedUpEvenWithoutItsInstanceId() {
    var name = KubeTestSupport.unique(nodePool);
    var ref = new NodeClaimRef(CLUSTER, name);
    client.genericKubernetesResources("karpenter.sh/v1", "NodePool").withName(nodePool).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"template\":{\"metadata\":{\"annotations\":{\"example.com/owner\":\"team-a\"}}}}}");
    claims.createNodeClaim(claim(name));
    claims.createNodeClaim(claim(name));

    var first = claims.launchInstance(ref);
    var again = claims.launchInstance(ref);

    assertEquals(first.instanceId(), again.instanceId(), "a retried launch returns the same instance");
    assertEquals(1, cloud.calls().count(CloudCall.Operation.CREATE, name));
    assertEquals("m5.large", first.instanceType(), "the cheapest of the ranked types with an offering");
    var claimLabels = cluster.getNodeClaim(name).orElseThrow().getMetadata().getLabels();
    assertEquals("m5.large", claimLabels.get(WellKnown.INSTANCE_TYPE_LABEL), "kubectl get nodeclaims shows the type");
    assertEquals(first.zone(), claimLabels.get(WellKnown.ZONE_LABEL));
    var nodeName = claims.awaitRegistered(new AwaitNodeRequest(CLUSTER, name, first.providerId(), null));
    var request = new AwaitNodeRequest(CLUSTER, name, first.providerId(), nodeName);
    claims.registerNode(request);
    claims.registerNode(request);
    var node = cluster.getNode(nodeName).orElseThrow();
    assertEquals(nodePool, node.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL));
    assertEquals(List.of(WellKnown.TERMINATION_FINALIZER), node.getMetadata().getFinalizers());
    assertTrue(node.getSpec().getTaints().stream().noneMatch(t -> t.getKey().equals(WellKnown.UNREGISTERED_TAINT_KEY)));
    var registered = cluster.getNodeClaim(name).orElseThrow();
    assertEquals(nodeName, registered.getStatus().nodeName());
    assertEquals("team-a", registered.getMetadata().getAnnotations().get("example.com/owner"), "the NodePool template's annotation");
    assertEquals("team-a", node.getMetadata().getAnnotations().get("example.com/owner"), "and the node's, as Karpenter copies it");
    assertEquals(node.getStatus().getCapacity(), registered.getStatus().capacity(), "status.capacity is the node's");
    assertEquals(node.getStatus().getAllocatable(), registered.getStatus().allocatable(), "status.allocatable is the node's");
    assertEquals(new Quantity("2"), registered.getStatus().capacity().get("cpu"), "an m5.large's 2 vCPUs");
    new StatusRefresher(cluster, cloud, CLUSTER, Clock.systemUTC()).refresh();
    var poolStatus = cluster.getNodePool(nodePool).orElseThrow().getStatus();
    assertEquals(1L, poolStatus.nodes(), "the NodePool counts its one claim");
    assertEquals(new Quantity("2"), poolStatus.resources().get("cpu"), "and sums its claims' capacity");
    assertEquals(registered.getStatus().capacity().get("memory"), poolStatus.resources().get("memory"));
    claims.awaitInitialized(request);
    assertEquals("true", cluster.getNode(nodeName).orElseThrow().getMetadata().getLabels().get(WellKnown.INITIALIZED_LABEL));

    var state = claims.terminateInstance(new TerminateInstanceRequest(CLUSTER, name, null));
    assertEquals(first.instanceId(), state.instanceId(), "found by the claim's tag");
    assertTrue(claims.awaitInstanceTerminated(new TerminateInstanceRequest(CLUSTER, name, state.instanceId())).gone());
    claims.deleteNode(new NodeRef(CLUSTER, nodeName, name));
    claims.deleteNodeClaim(ref);
    claims.deleteNodeClaim(ref);
    KubeTestSupport.awaitTrue("node and claim gone", () -> cluster.getNode(nodeName).isEmpty() && cluster.getNodeClaim(name).isEmpty());
    kubelet.close();
  }

  /** A claim's startup taint is on its node from the start, and the claim is Initialized only once it is gone. */
  @Test
  void aClaimIsInitializedOnlyOnceItsStartupTaintIsGone() {
    var name = KubeTestSupport.unique(nodePool);
    var startup = new dev.farrier.model.Taint("example.com/agent-not-ready", null, "NoSchedule");
    var base = claim(name);
    claims.createNodeClaim(new NodeClaimRequest(name, nodePool, nodeClass, base.instanceTypes(), base.requirements(), base.requests(),
        base.labels(), List.of(), List.of(startup), "hash-1", null, null, List.of()));
    var launched = claims.launchInstance(new NodeClaimRef(CLUSTER, name));
    var nodeName = claims.awaitRegistered(new AwaitNodeRequest(CLUSTER, name, launched.providerId(), null));
    var request = new AwaitNodeRequest(CLUSTER, name, launched.providerId(), nodeName);
    claims.registerNode(request);
    assertTrue(cluster.getNode(nodeName).orElseThrow().getSpec().getTaints().stream().anyMatch(t -> t.getKey().equals(startup.key())),
        "the node registers with its startup taint");

    // The startup taint's owner (a DaemonSet on EKS) removes it 3 s from now; the claim must not be Initialized before.
    var initializedBeforeRemoval = new AtomicBoolean(true);
    var removedAt = new java.util.concurrent.atomic.AtomicReference<Instant>();
    try (var owner = java.util.concurrent.Executors.newSingleThreadScheduledExecutor()) {
      owner.schedule(() -> {
        initializedBeforeRemoval.set(Conditions.isTrue(cluster.getNodeClaim(name).orElseThrow().getStatus().conditionsOrEmpty(), "Initialized"));
        client.nodes().withName(nodeName).edit(n -> {
          n.getSpec().getTaints().removeIf(t -> t.getKey().equals(startup.key()));
          return n;
        });
        removedAt.set(Instant.now());
      }, 3, java.util.concurrent.TimeUnit.SECONDS);

      claims.awaitInitialized(request);

      var returnedAt = Instant.now();
      assertFalse(initializedBeforeRemoval.get(), "not Initialized while the startup taint is on the node");
      assertTrue(removedAt.get() != null && !returnedAt.isBefore(removedAt.get()), "initialized only after the taint was removed");
    }
    assertTrue(Conditions.isTrue(cluster.getNodeClaim(name).orElseThrow().getStatus().conditionsOrEmpty(), "Initialized"));
    var state = claims.terminateInstance(new TerminateInstanceRequest(CLUSTER, name, launched.instanceId()));
    claims.awaitInstanceTerminated(new TerminateInstanceRequest(CLUSTER, name, state.instanceId()));
    claims.deleteNode(new NodeRef(CLUSTER, nodeName, name));
    claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, name));
  }

  /**
   * A GPU type launches from its alias's NVIDIA image, registers before its device plugin has reported the GPU, and is
   * Initialized only once the node reports it; the claim then says the GPU in its capacity.
   */
  @Test
  void aGpuClaimBootsTheNvidiaImageAndIsInitializedOnlyOnceItsGpuIsReported() {
    client.genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").withName(nodeClass).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"amiFamily\":\"AL2023\",\"amiSelectorTerms\":[{\"alias\":\"al2023@latest\"}]}}");
    new StatusRefresher(cluster, cloud, CLUSTER, Clock.systemUTC()).refresh();
    var name = KubeTestSupport.unique(nodePool);
    claims.createNodeClaim(new NodeClaimRequest(name, nodePool, nodeClass, List.of("g4dn.xlarge"),
        List.of(Requirement.in(WellKnown.INSTANCE_TYPE_LABEL, List.of("g4dn.xlarge")),
            Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of(WellKnown.CAPACITY_ON_DEMAND))),
        Resources.of(1000, 1L << 30, 1), Map.of(), List.of(), List.of(), "hash-1", null, null, List.of()));

    var launched = claims.launchInstance(new NodeClaimRef(CLUSTER, name));

    assertEquals("amazon-eks-node-al2023-x86_64-nvidia-1.34-v20251103", cloud.amis().findById(launched.imageId()).orElseThrow().name());
    assertEquals(new Quantity("1"), cluster.getNodeClaim(name).orElseThrow().getStatus().capacity().get("nvidia.com/gpu"),
        "the claim promises the type's GPU from launch on");
    var nodeName = claims.awaitRegistered(new AwaitNodeRequest(CLUSTER, name, launched.providerId(), null));
    var request = new AwaitNodeRequest(CLUSTER, name, launched.providerId(), nodeName);
    claims.registerNode(request);
    assertFalse(cluster.getNode(nodeName).orElseThrow().getStatus().getAllocatable().containsKey("nvidia.com/gpu"),
        "registered before the device plugin reports the GPU");

    claims.awaitInitialized(request);

    assertEquals(new Quantity("1"), cluster.getNode(nodeName).orElseThrow().getStatus().getAllocatable().get("nvidia.com/gpu"),
        "Initialized only once the node reports its GPU");
    var initialized = cluster.getNodeClaim(name).orElseThrow();
    assertTrue(Conditions.isTrue(initialized.getStatus().conditionsOrEmpty(), "Initialized"));
    assertEquals(new Quantity("1"), initialized.getStatus().allocatable().get("nvidia.com/gpu"));
    var state = claims.terminateInstance(new TerminateInstanceRequest(CLUSTER, name, launched.instanceId()));
    claims.awaitInstanceTerminated(new TerminateInstanceRequest(CLUSTER, name, state.instanceId()));
    claims.deleteNode(new NodeRef(CLUSTER, nodeName, name));
    claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, name));
  }

  /**
   * Each step records the Events its request names once it has done its work (the launch's names the instance it
   * launched); terminate-and-wait and the final delete are one activity each and idempotent.
   */
  @Test
  void stepsRecordTheirEventsAndTheLastTwoStepsAreOneActivityEach() {
    var name = KubeTestSupport.unique(nodePool);
    claims.createNodeClaim(claim(name));
    var launched = claims.launchInstance(new NodeClaimRef(CLUSTER, name, true));
    var nodeName = claims.awaitRegistered(new AwaitNodeRequest(CLUSTER, name, launched.providerId(), null));
    var request = new AwaitNodeRequest(CLUSTER, name, launched.providerId(), nodeName);
    claims.registerNode(request.recording(
        List.of(event(EventReasons.KIND_NODE_CLAIM, name, EventReasons.REGISTERED, "node registered"))));
    claims.awaitInitialized(request);

    var terminated = event(EventReasons.KIND_NODE, nodeName, EventReasons.TERMINATED, "terminated " + launched.instanceId());
    var terminate = new TerminateInstanceRequest(CLUSTER, name, launched.instanceId(), List.of(terminated));
    assertTrue(claims.terminateInstanceAndWait(terminate).gone());
    assertTrue(claims.terminateInstanceAndWait(terminate).gone(), "a retry of a terminated instance is done at once");
    var completed = event(EventReasons.KIND_NODE_CLAIM, name, EventReasons.DISRUPTION_COMPLETED, "disrupted");
    claims.deleteNodeAndClaim(new NodeRef(CLUSTER, nodeName, name, List.of(completed)));
    claims.deleteNodeAndClaim(new NodeRef(CLUSTER, nodeName, name));
    KubeTestSupport.awaitTrue("node and claim gone",
        () -> cluster.getNode(nodeName).isEmpty() && cluster.getNodeClaim(name).isEmpty());

    assertEquals(Map.of(
        EventReasons.LAUNCHED, EventReasons.launched(launched),
        EventReasons.REGISTERED, "node registered",
        EventReasons.DISRUPTION_COMPLETED, "disrupted"), eventsOn(name));
    assertEquals(Map.of(EventReasons.TERMINATED, "terminated " + launched.instanceId()), eventsOn(nodeName),
        "recorded once: the retry bumps the same Event's count");
    kubelet.close();
  }

  private static EventRequest event(String kind, String name, String reason, String message) {
    return new EventRequest(CLUSTER, kind, name, EventReasons.NORMAL, reason, message);
  }

  /** Farrier's Events about the object named, reason to message. */
  private Map<String, String> eventsOn(String name) {
    return client.v1().events().inNamespace("default").withField("involvedObject.name", name).list().getItems().stream()
        .filter(e -> "farrier".equals(e.getReportingComponent()))
        .collect(Collectors.toMap(e -> e.getReason(), e -> e.getMessage()));
  }

  @Test
  void interruptedInstancesResolveToTheirClaimNodeAndNodePoolOthersAreNotFarriers() {
    var name = KubeTestSupport.unique(nodePool);
    claims.createNodeClaim(claim(name));
    var launched = claims.launchInstance(new NodeClaimRef(CLUSTER, name));
    var nodeName = claims.awaitRegistered(new AwaitNodeRequest(CLUSTER, name, launched.providerId(), null));
    claims.registerNode(new AwaitNodeRequest(CLUSTER, name, launched.providerId(), nodeName));
    client.genericKubernetesResources("karpenter.sh/v1", "NodePool").withName(nodePool).edit(p -> {
      p.getMetadata().setAnnotations(Map.of(WellKnown.REBALANCE_REPLACEMENT_ANNOTATION, "true"));
      return p;
    });
    var activities = new InterruptionActivitiesImpl((java.util.function.Function<String, dev.farrier.activities.interruption.SqsInterruptionQueue>) null,
        cluster, cloud, new dev.farrier.activities.interruption.InterruptionCounters(new io.micrometer.core.instrument.simple.SimpleMeterRegistry()),
        () -> false);

    var resolved = activities.resolve(new ResolveInterruptionRequest(CLUSTER, InterruptionKind.RebalanceRecommendation,
        "rebalance recommended", List.of(launched.instanceId(), "i-0000000000000dead")));

    var ours = resolved.targets().get(0);
    assertTrue(ours.farriers());
    assertTrue(ours.rebalanceReplacement(), "the NodePool opted in");
    assertEquals(launched.zone(), ours.zone());
    var command = ours.command();
    assertEquals(List.of(name, nodeName, nodePool, launched.instanceId(), "replace", "RebalanceRecommendation", "m5.large", "on-demand"),
        java.util.Arrays.asList(command.nodeClaim(), command.nodeName(), command.nodePool(), command.instanceId(), command.method().word(),
            command.reason(), command.instanceType(), command.capacityType()));
    assertFalse(resolved.targets().get(1).farriers(), "an instance without a Farrier NodeClaim is not Farrier's");

    activities.markRebalanceRecommended(new NodeRef(CLUSTER, nodeName, name));
    activities.markRebalanceRecommended(new NodeRef(CLUSTER, "no-such-node", name));
    assertTrue(cluster.getNode(nodeName).orElseThrow().getMetadata().getAnnotations()
        .containsKey(WellKnown.REBALANCE_RECOMMENDED_ANNOTATION), "marked for the disruption planner");
  }

  @Test
  void anInstanceFarrierDidNotLaunchIsNeverTerminated() {
    var foreign = cloud.registerForeignInstance("m5.large", "us-east-1a", Map.of("Name", "someone-elses"));

    var failure = assertThrows(ActivityFailure.class,
        () -> claims.terminateInstance(new TerminateInstanceRequest(CLUSTER, "some-claim", foreign.id())));

    var cause = assertInstanceOf(ApplicationFailure.class, failure.getCause());
    assertEquals("NotOwned", cause.getType());
    assertTrue(cause.isNonRetryable());
    assertFalse(cloud.get(foreign.id()).orElseThrow().state().equals("shutting-down"));
    assertEquals(0, cloud.calls().read(CloudCall.Operation.TERMINATE).size());
  }

  @Test
  void aLaunchFromANodeClassTheStatusLoopHasNotResolvedYetIsRetriedAndLaunchesNothing() {
    String unresolved = KubeTestSupport.unique("class");
    KubeTestSupport.apply(client, KubeTestSupport.nodeClassYaml(unresolved, "ami-0123456789abcdef0"));
    var name = claimOf(unresolved);

    var cause = launchFailure(name);

    assertEquals("NodeClassNotResolved", cause.getType());
    assertFalse(cause.isNonRetryable());
    assertTrue(cause.getOriginalMessage().contains("status.subnets"), cause.getOriginalMessage());
    assertEquals(0, cloud.calls().count(CloudCall.Operation.CREATE, name));
  }

  @Test
  void aLaunchFromANodeClassResolvedWithoutSubnetsFailsNotReadyAndLaunchesNothing() {
    String unresolved = KubeTestSupport.unique("class");
    KubeTestSupport.apply(client, KubeTestSupport.nodeClassYaml(unresolved, "ami-0123456789abcdef0"));
    cluster.patchNodeClassStatus(unresolved, new EC2NodeClassStatus(null, null, null, null, List.of(Condition.of(
        EC2NodeClassStatus.READY, Condition.FALSE, "SubnetsNotFound", "subnetSelectorTerms matched no subnet", Instant.now()))));
    var name = claimOf(unresolved);

    var cause = launchFailure(name);

    assertEquals("NodeClassNotReady", cause.getType());
    assertTrue(cause.isNonRetryable());
    assertTrue(cause.getOriginalMessage().contains("status.subnets"), cause.getOriginalMessage());
    assertEquals(0, cloud.calls().count(CloudCall.Operation.CREATE, name));
  }

  private String claimOf(String nodeClass) {
    var name = KubeTestSupport.unique(nodePool);
    claims.createNodeClaim(new NodeClaimRequest(name, nodePool, nodeClass, List.of("m5.large"),
        List.of(Requirement.in(WellKnown.INSTANCE_TYPE_LABEL, List.of("m5.large"))), Resources.of(1000, 1L << 30, 1), Map.of(),
        List.of(), List.of(), "hash-1", null, null, List.of()));
    return name;
  }

  private ApplicationFailure launchFailure(String claim) {
    var failure = assertThrows(ActivityFailure.class, () -> claims.launchInstance(new NodeClaimRef(CLUSTER, claim)));
    return assertInstanceOf(ApplicationFailure.class, failure.getCause());
  }

  private Pod pendingPod(String name, Map<String, String> nodeSelector) {
    var pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .withNewSpec().withNodeSelector(nodeSelector)
        .addNewContainer().withName("c").withImage("pause").withNewResources()
        .withRequests(Map.of("cpu", new Quantity("1"), "memory", new Quantity("512Mi"))).endResources().endContainer()
        .endSpec().build();
    return client.pods().resource(pod).create();
  }

  @Test
  void provisioningPlansTheCheapestFittingTypesAndExplainsWhatCannotFit() {
    var fits = pendingPod(KubeTestSupport.unique("fits"), Map.of("intent", nodePool));
    var never = pendingPod(KubeTestSupport.unique("never"), Map.of("intent", nodePool, WellKnown.ARCH_LABEL, "s390x"));
    try {
      var plan = planning.planProvisioning(new PlanProvisioningRequest(CLUSTER, "batch-1", List.of(ref(fits), ref(never))));

      var forUs = plan.claims().stream().filter(c -> c.nodePool().equals(nodePool)).toList();
      assertEquals(1, forUs.size(), plan.toString());
      var types = forUs.getFirst().instanceTypes();
      assertTrue(types.size() > 1 && types.size() <= 60, types.toString());
      var prices = cloud.instanceTypes().stream().filter(t -> types.contains(t.name()))
          .collect(Collectors.toMap(t -> t.name(), t -> t.offerings().stream()
              .filter(o -> o.capacityType().equals(WellKnown.CAPACITY_ON_DEMAND)).mapToDouble(o -> o.pricePerHour()).min().orElseThrow()));
      assertEquals(prices.values().stream().mapToDouble(Double::doubleValue).min().orElseThrow(), prices.get(types.getFirst()),
          "ranked cheapest first");
      var unschedulable = plan.unschedulable().stream().filter(u -> u.pod().name().equals(never.getMetadata().getName())).toList();
      assertEquals(1, unschedulable.size(), plan.toString());
      assertTrue(unschedulable.getFirst().reason().contains(nodePool), unschedulable.getFirst().reason());
    } finally {
      client.pods().resource(fits).delete();
      client.pods().resource(never).delete();
    }
  }

  private Pod pendingPod(String name, Map<String, String> nodeSelector, String cpu, String claimName) {
    var builder = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .withNewSpec().withNodeSelector(nodeSelector)
        .addNewContainer().withName("c").withImage("pause").withNewResources()
        .withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity("256Mi"))).endResources().endContainer();
    if (claimName != null) {
      builder = builder.addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName(claimName).endPersistentVolumeClaim()
          .endVolume();
    }
    return client.pods().resource(builder.endSpec().build()).create();
  }

  /** A pending pod of the test's NodePool that asks for {@code ephemeralStorage}. */
  private Pod podNeedingDisk(String prefix, String ephemeralStorage) {
    return client.pods().resource(new PodBuilder().withNewMetadata().withName(KubeTestSupport.unique(prefix)).withNamespace("default")
        .endMetadata().withNewSpec().withNodeSelector(Map.of("intent", nodePool)).addNewContainer().withName("c").withImage("pause")
        .withNewResources().withRequests(Map.of("cpu", new Quantity("100m"), "ephemeral-storage", new Quantity(ephemeralStorage)))
        .endResources().endContainer().endSpec().build()).create();
  }

  @Test
  void theNodeClassRootVolumeIsTheEphemeralStorageThePlannerOffers() {
    var pod = podNeedingDisk("disk", "60Gi");
    var request = new PlanProvisioningRequest(CLUSTER, "batch-disk", List.of(ref(pod)));
    try {
      var before = planning.planProvisioning(request);
      assertTrue(before.claims().stream().noneMatch(c -> c.nodePool().equals(nodePool)), "the default 20Gi root volume is too small: " + before);

      client.genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").withName(nodeClass).patch(
          PatchContext.of(PatchType.JSON_MERGE),
          "{\"spec\":{\"blockDeviceMappings\":[{\"deviceName\":\"/dev/xvda\",\"rootVolume\":true,\"ebs\":{\"volumeSize\":\"100Gi\"}}]}}");
      var after = planning.planProvisioning(request);
      assertEquals(1, after.claims().stream().filter(c -> c.nodePool().equals(nodePool)).count(), "a 100Gi root volume holds 60Gi: " + after);
    } finally {
      client.pods().resource(pod).delete();
    }
  }

  @Test
  void underRaid0TheInstanceStoreIsTheEphemeralStorageThePlannerOffers() {
    // 200Gi is more than any root volume this class is given here (100Gi at most): only an instance store holds it.
    var pod = podNeedingDisk("raid0", "200Gi");
    var request = new PlanProvisioningRequest(CLUSTER, "batch-raid0", List.of(ref(pod)));
    var nodeClasses = client.genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").withName(nodeClass);
    try {
      assertTrue(planning.planProvisioning(request).claims().stream().noneMatch(c -> c.nodePool().equals(nodePool)),
          "without a policy the instance store is not counted");

      nodeClasses.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"instanceStorePolicy\":\"RAID0\"}}");
      var claims = planning.planProvisioning(request).claims().stream().filter(c -> c.nodePool().equals(nodePool)).toList();
      assertEquals(1, claims.size(), "a RAID0 instance store holds 200Gi: " + claims);
      var catalog = cloud.instanceTypes().stream().collect(java.util.stream.Collectors.toMap(t -> t.name(), t -> t.instanceStoreGb()));
      assertTrue(claims.getFirst().instanceTypes().stream().allMatch(t -> catalog.get(t) * 1_000_000_000L > 200L * (1L << 30)),
          "only types whose instance store holds it: " + claims.getFirst().instanceTypes());
    } finally {
      nodeClasses.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"instanceStorePolicy\":null}}");
      client.pods().resource(pod).delete();
    }
  }

  @Test
  void provisioningUsesInFlightClaimsHonoursVolumeZonesAndRecordsOneEventPerReason() {
    // An in-flight claim (no node yet) promised 1 cpu on m5.large or m5.xlarge: about 930m is left on the smaller.
    var inFlight = KubeTestSupport.unique(nodePool);
    claims.createNodeClaim(claim(inFlight));
    // A PV pinned to us-east-1c, pre-bound to its claim; and a WaitForFirstConsumer class allowed only in us-east-1b.
    var pvName = KubeTestSupport.unique("pv");
    var boundClaim = KubeTestSupport.unique("bound");
    var storageClass = KubeTestSupport.unique("wffc");
    var lateClaim = KubeTestSupport.unique("late");
    KubeTestSupport.apply(client, """
        apiVersion: v1
        kind: PersistentVolume
        metadata: {name: %s}
        spec:
          capacity: {storage: 1Gi}
          accessModes: [ReadWriteOnce]
          storageClassName: ""
          hostPath: {path: /tmp/%s}
          nodeAffinity:
            required:
              nodeSelectorTerms:
                - matchExpressions:
                    - {key: topology.ebs.csi.aws.com/zone, operator: In, values: [us-east-1c]}
        ---
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: %s, namespace: default}
        spec:
          accessModes: [ReadWriteOnce]
          storageClassName: ""
          volumeName: %s
          resources: {requests: {storage: 1Gi}}
        ---
        apiVersion: storage.k8s.io/v1
        kind: StorageClass
        metadata: {name: %s}
        provisioner: ebs.csi.aws.com
        volumeBindingMode: WaitForFirstConsumer
        allowedTopologies:
          - matchLabelExpressions:
              - {key: topology.kubernetes.io/zone, values: [us-east-1b]}
        ---
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: %s, namespace: default}
        spec:
          accessModes: [ReadWriteOnce]
          storageClassName: %s
          resources: {requests: {storage: 1Gi}}
        """.formatted(pvName, pvName, boundClaim, pvName, storageClass, lateClaim, storageClass));
    var intent = Map.of("intent", nodePool);
    var small = pendingPod(KubeTestSupport.unique("small"), intent, "500m", null);
    var zonalC = pendingPod(KubeTestSupport.unique("zonal-c"), intent, "1500m", boundClaim);
    var zonalB = pendingPod(KubeTestSupport.unique("zonal-b"), intent, "1500m", lateClaim);
    var never = pendingPod(KubeTestSupport.unique("never"), Map.of("intent", nodePool, WellKnown.ARCH_LABEL, "s390x"), "1", null);
    try {
      var refs = List.of(ref(small), ref(zonalC), ref(zonalB), ref(never));
      var plan = planning.planProvisioning(new PlanProvisioningRequest(CLUSTER, "batch-1", refs));
      planning.planProvisioning(new PlanProvisioningRequest(CLUSTER, "batch-2", refs));
      planning.planProvisioning(new PlanProvisioningRequest(CLUSTER, "batch-3", refs));

      var onInFlight = plan.onExisting().stream().filter(e -> e.node().equals(inFlight)).flatMap(e -> e.pods().stream())
          .map(PodRef::name).toList();
      assertEquals(List.of(small.getMetadata().getName()), onInFlight, plan.toString());
      assertEquals(List.of("us-east-1c"), zonesOfClaimFor(plan, zonalC));
      assertEquals(List.of("us-east-1b"), zonesOfClaimFor(plan, zonalB));
      var events = client.v1().events().inNamespace("default")
          .withField("involvedObject.name", never.getMetadata().getName()).list().getItems().stream()
          .filter(e -> "farrier".equals(e.getReportingComponent())).toList();
      assertEquals(1, events.size(), events.toString());
      assertEquals("FailedScheduling", events.getFirst().getReason());
      assertEquals("Warning", events.getFirst().getType());
      assertEquals(1, events.getFirst().getCount(), "three plans within the window record the same reason once");
      assertTrue(events.getFirst().getMessage().contains("nodepool " + nodePool + ": "), events.getFirst().getMessage());
      // A restarted worker (no memory of it) finds the stored Event and does not write it again within the window.
      var again = new PodEvent("default", never.getMetadata().getName(), never.getMetadata().getUid(), "Warning", "FailedScheduling",
          events.getFirst().getMessage());
      assertFalse(cluster.recordPodEvent(again, Duration.ofMinutes(10)));
      assertTrue(cluster.recordPodEvent(again, Duration.ZERO), "past the window it is counted again");
    } finally {
      for (var pod : List.of(small, zonalC, zonalB, never)) {
        client.pods().resource(pod).delete();
      }
      claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, inFlight));
    }
  }

  /**
   * A claim holds the pods it was created for while the kube-scheduler binds them, unless its node can no longer take
   * them: here another replica of a one-per-node Deployment was bound there first, so the planned replica is planned
   * again at once instead of waiting out the promise window.
   */
  @Test
  void aPodKeptOffItsPromisedNodeByAnotherReplicasAntiAffinityIsPlannedAgainAtOnce() {
    var app = KubeTestSupport.unique("web");
    // Not the kube-scheduler's (another scheduler name), so it stays pending whatever lands on the node.
    var planned = onePerNode(KubeTestSupport.unique("planned"), app, null);
    var name = KubeTestSupport.unique(nodePool);
    var base = claim(name);
    claims.createNodeClaim(new NodeClaimRequest(name, nodePool, nodeClass, base.instanceTypes(), base.requirements(), base.requests(),
        base.labels(), List.of(), List.of(), "hash-1", null, null, List.of(ref(planned))));
    var launched = claims.launchInstance(new NodeClaimRef(CLUSTER, name));
    var nodeName = claims.awaitRegistered(new AwaitNodeRequest(CLUSTER, name, launched.providerId(), null));
    var request = new AwaitNodeRequest(CLUSTER, name, launched.providerId(), nodeName);
    claims.registerNode(request);
    claims.awaitInitialized(request);
    Pod replica = null;
    try {
      var batch = new PlanProvisioningRequest(CLUSTER, "batch-promised", List.of(ref(planned)));
      var held = planning.planProvisioning(batch);
      assertTrue(held.claims().isEmpty() && held.onExisting().isEmpty(), "the new node still holds room for it: " + held);

      replica = onePerNode(KubeTestSupport.unique("replica"), app, nodeName);
      var again = planning.planProvisioning(batch);
      var claimed = again.claims().stream().flatMap(c -> c.pods().stream()).map(PodRef::name).toList();
      assertEquals(List.of(planned.getMetadata().getName()), claimed, again.toString());
    } finally {
      client.pods().resource(planned).delete();
      if (replica != null) {
        client.pods().resource(replica).withGracePeriod(0).delete();
      }
      var state = claims.terminateInstance(new TerminateInstanceRequest(CLUSTER, name, null));
      claims.awaitInstanceTerminated(new TerminateInstanceRequest(CLUSTER, name, state.instanceId()));
      claims.deleteNode(new NodeRef(CLUSTER, nodeName, name));
      claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, name));
    }
  }

  /**
   * A pod the kube-scheduler binds between the batch's read of its pods and its read of the nodes' pods is the node's
   * now. Counted both as pending and as bound, it took the room of another pod its claim was launched for, and a
   * second node was launched for that one. Here the binding comes exactly between the two reads.
   */
  @Test
  void aPodBoundWhileItsBatchIsPlannedIsNotCountedTwiceSoNoSecondNodeIsLaunched() throws Exception {
    // 600m each on an m5.large (1,930m allocatable): its node has room for the three, not for a fourth.
    List<Pod> pods = List.of(unscheduled(KubeTestSupport.unique("a"), "600m"), unscheduled(KubeTestSupport.unique("b"), "600m"),
        unscheduled(KubeTestSupport.unique("c"), "600m"));
    var refs = pods.stream().map(ActivitiesIT::ref).toList();
    var name = KubeTestSupport.unique(nodePool);
    var base = claim(name);
    claims.createNodeClaim(new NodeClaimRequest(name, nodePool, nodeClass, List.of("m5.large"), base.requirements(), base.requests(),
        base.labels(), List.of(), List.of(), "hash-1", null, null, refs));
    var launched = claims.launchInstance(new NodeClaimRef(CLUSTER, name));
    var nodeName = claims.awaitRegistered(new AwaitNodeRequest(CLUSTER, name, launched.providerId(), null));
    var request = new AwaitNodeRequest(CLUSTER, name, launched.providerId(), nodeName);
    claims.registerNode(request);
    claims.awaitInitialized(request);
    var first = pods.getFirst();
    // The cluster as the planner reads it, with the first pod bound right after the unbound pods were first listed.
    var bound = new AtomicBoolean();
    var bindsBetweenReads = (Cluster) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {Cluster.class}, (proxy, method, args) -> {
          Object result;
          try {
            result = method.invoke(cluster, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if (method.getName().equals("listUnboundPods") && bound.compareAndSet(false, true)) {
            client.bindings().inNamespace("default").resource(new BindingBuilder()
                .withNewMetadata().withName(first.getMetadata().getName()).endMetadata()
                .withNewTarget().withKind("Node").withName(nodeName).endTarget().build()).create();
          }
          return result;
        });
    var racing = new PlanningActivitiesImpl(bindsBetweenReads, cloud, ReplacementTracker.TAINT_MEANS_RUNNING, activities.meters);
    try {
      var held = planning.planProvisioning(new PlanProvisioningRequest(CLUSTER, "batch-before", refs));
      assertTrue(held.claims().isEmpty() && held.onExisting().isEmpty(), "the new node holds room for all three: " + held);

      var plan = racing.planProvisioning(new PlanProvisioningRequest(CLUSTER, "batch-racing", refs));
      assertEquals(nodeName, client.pods().resource(first).get().getSpec().getNodeName(), "bound between the two reads");
      assertTrue(plan.claims().isEmpty() && plan.onExisting().isEmpty(), "the two left still have room on the node: " + plan);
    } finally {
      pods.forEach(p -> client.pods().resource(p).withGracePeriod(0).delete());
      var state = claims.terminateInstance(new TerminateInstanceRequest(CLUSTER, name, null));
      claims.awaitInstanceTerminated(new TerminateInstanceRequest(CLUSTER, name, state.instanceId()));
      claims.deleteNode(new NodeRef(CLUSTER, nodeName, name));
      claims.deleteNodeClaim(new NodeClaimRef(CLUSTER, name));
    }
  }

  /** A pod on the pool that the kube-scheduler leaves alone (another scheduler's): it stays pending until bound here. */
  private Pod unscheduled(String name, String cpu) {
    var pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
        .withNewSpec().withSchedulerName("not-the-kube-scheduler").withNodeSelector(Map.of("intent", nodePool))
        .addNewContainer().withName("c").withImage("pause").withNewResources()
        .withRequests(Map.of("cpu", new Quantity(cpu), "memory", new Quantity("128Mi"))).endResources().endContainer()
        .endSpec().build();
    return client.pods().resource(pod).create();
  }

  /** A pod of {@code app} that required hostname anti-affinity keeps off any node holding another; bound to {@code node} if given. */
  private Pod onePerNode(String name, String app, String node) {
    var pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withLabels(Map.of("app", app)).endMetadata()
        .withNewSpec().withSchedulerName("not-the-kube-scheduler").withNodeName(node).withNodeSelector(Map.of("intent", nodePool))
        .withNewAffinity().withNewPodAntiAffinity().addNewRequiredDuringSchedulingIgnoredDuringExecution()
        .withTopologyKey(WellKnown.HOSTNAME_LABEL).withNewLabelSelector().withMatchLabels(Map.of("app", app)).endLabelSelector()
        .endRequiredDuringSchedulingIgnoredDuringExecution().endPodAntiAffinity().endAffinity()
        .addNewContainer().withName("c").withImage("pause").withNewResources()
        .withRequests(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("128Mi"))).endResources().endContainer()
        .endSpec().build();
    return client.pods().resource(pod).create();
  }

  private static List<String> zonesOfClaimFor(dev.farrier.model.ProvisioningPlan plan, Pod pod) {
    var claim = plan.claims().stream().filter(c -> c.pods().stream().anyMatch(p -> p.name().equals(pod.getMetadata().getName())))
        .findFirst().orElseThrow(() -> new AssertionError("no claim for " + pod.getMetadata().getName() + ": " + plan));
    return claim.requirements().stream().filter(r -> r.key().equals(WellKnown.ZONE_LABEL)).findFirst().orElseThrow().values();
  }

  private static PodRef ref(Pod pod) {
    return new PodRef(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), pod.getMetadata().getUid());
  }
}
