package dev.farrier.activities.provisioning;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassSpec;
import dev.farrier.activities.crd.KubeletConfiguration;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimResources;
import dev.farrier.activities.crd.NodeClaimSpec;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodeClassReference;
import dev.farrier.activities.crd.RequirementWithMinValues;
import dev.farrier.activities.nodeclass.NodeClassLaunches;
import dev.farrier.activities.views.NamespaceSelectors;
import dev.farrier.activities.views.PodViews;
import dev.farrier.activities.views.ResourceQuantities;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.ClaimNamer;
import dev.farrier.planner.EvictionThreshold;
import dev.farrier.planner.ExistingNodeView;
import dev.farrier.planner.HostPort;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodePoolView;
import dev.farrier.planner.OfferingView;
import dev.farrier.planner.PodSpecView;
import dev.farrier.planner.ProvisioningPlanner;
import dev.farrier.planner.ProvisioningSnapshot;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * How nodes and in-flight claims become the planner's existing capacity, replaying the sandbox's 1,000-pod run: a
 * claim planned for 517 pods of 250m launched as {@code c6a.48xlarge} (192 vCPU, 737 pods at most), registered and
 * was Initialized; the next batch (341 such pods) was planned while only some of the 517 were bound.
 */
class ProvisioningSnapshotsTest {
  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;
  private static final Instant NOW = Instant.parse("2026-11-21T07:21:25Z");
  private static final String POOL = "bench";
  private static final NamespaceSelectors NO_NAMESPACES = NamespaceSelectors.lazy(List::of);

  private static final InstanceTypeView LARGE = type("c6a.48xlarge", 192, 384, 737);
  private static final InstanceTypeView SMALLER = type("c6a.32xlarge", 128, 256, 737);

  @Test
  void aFreshlyInitializedClaimKeepsTheRoomOfItsUnboundPods() {
    NodeClaim claim = claim("bench-0", List.of(LARGE.name()), "node-1", NOW.minusSeconds(5));
    ExistingNodeView view = only(existing(claim, boundPods(200)));
    assertEquals(Resources.of(517 * 250, 517 * 256 * MIB, 517), view.promised());

    ProvisioningPlan plan = plan(view, pendingPods(341));
    int onNode = plan.onExisting().getFirst().pods().size();
    // 737 pod slots less the 517 promised; CPU would allow 247 (191,450m less 517 x 250m, in 250m steps).
    assertEquals(220, onNode);
    assertEquals(341 - 220, plan.claims().stream().mapToInt(c -> c.pods().size()).sum());
  }

  @Test
  void aClaimInitializedLongAgoCountsOnlyItsBoundPods() {
    NodeClaim claim = claim("bench-0", List.of(LARGE.name()), "node-1",
        NOW.minus(ProvisioningSnapshots.PROMISE_WINDOW).minus(Duration.ofSeconds(1)));
    ExistingNodeView view = only(existing(claim, boundPods(200)));
    assertEquals(Resources.ZERO, view.promised());
    assertEquals(200, view.pods().size());
  }

  @Test
  void aLaunchedClaimWithoutANodeIsSizedAsTheTypeItLaunchedAs() {
    NodeClaim notLaunched = claim("bench-1", List.of(SMALLER.name(), LARGE.name()), null, null);
    assertEquals(737, only(existing(notLaunched, List.of())).allocatable().pods());
    assertEquals(SMALLER.allocatable(KubeletSettings.DEFAULTS).milliCpu(),
        only(existing(notLaunched, List.of())).allocatable().milliCpu(), "before launch: the smallest listed type");

    NodeClaim launched = claim("bench-1", List.of(SMALLER.name(), LARGE.name()), null, null);
    launched.getMetadata().getLabels().put(WellKnown.INSTANCE_TYPE_LABEL, LARGE.name());
    ExistingNodeView view = only(existing(launched, List.of()));
    assertEquals(LARGE.allocatable(KubeletSettings.DEFAULTS).milliCpu(), view.allocatable().milliCpu());
    assertEquals(Resources.of(517 * 250, 517 * 256 * MIB, 517), view.promised(), "its planned pods are promised");
  }

  @Test
  void aClaimStillLaunchingGivesUpTheRoomOfItsPlannedPodsTheSchedulerBoundElsewhere() {
    // 200 of the 517 pods planned for bench-1 ran on node-1 (another claim's node) before bench-1 came up.
    NodeClaim launching = planned(claim("bench-1", List.of(LARGE.name()), null, null), 517);
    ExistingNodeView view = only(existing(launching, boundPods(200)));
    assertEquals(Resources.of(317 * 250, 317 * 256 * MIB, 317), view.promised());

    ProvisioningPlan plan = plan(view, pendingPods(341));
    assertEquals(341, plan.onExisting().getFirst().pods().size(), "the next batch goes on the claim's freed room");
    assertEquals(List.of(), plan.claims());
  }

  @Test
  void aClaimKeepsTheRoomOfItsPlannedPodsBoundOnItsOwnNode() {
    NodeClaim claim = planned(claim("bench-0", List.of(LARGE.name()), "node-1", NOW.minusSeconds(5)), 517);
    ExistingNodeView view = only(existing(claim, boundPods(200)));
    assertEquals(Resources.of(517 * 250, 517 * 256 * MIB, 517), view.promised());
    assertEquals(200, view.pods().size());
  }

  /**
   * Pods an earlier batch planned onto a claim and not yet bound are nominated to it: the next batch counts them there
   * for topology and host ports. Those bound since (here, elsewhere) are not; nor are any once the claim's promise is
   * over.
   */
  @Test
  void theUnboundPodsAClaimWasPlannedForAreNominatedToIt() {
    NodeClaim launching = planned(claim("bench-1", List.of(LARGE.name()), null, null), 3);
    Pod web = unboundPod("u-first-0", Map.of("app", "web"), 8080);
    Pod alsoUnbound = unboundPod("u-first-1", Map.of("app", "web"), 0);
    Pod boundElsewhere = boundPods(3).get(2);
    Pod boundSinceRead = unboundPod("u-first-2", Map.of(), 0);
    ExistingNodeView view = only(ProvisioningSnapshots.existingNodes(List.of(), List.of(boundElsewhere),
        List.of(web, alsoUnbound, boundSinceRead), List.of(launching), Map.of(POOL, List.of(SMALLER, LARGE)), Map.of(),
        NO_NAMESPACES, CsiVolumes.NONE, NOW));
    assertEquals(List.of("u-first-0", "u-first-1"), view.nominated().stream().map(p -> p.pod().uid()).toList());
    assertEquals(Map.of("app", "web"), view.nominated().getFirst().labels());
    assertEquals(List.of(new HostPort("0.0.0.0", "TCP", 8080)), view.nominated().getFirst().hostPorts());

    NodeClaim longUp = planned(claim("bench-0", List.of(LARGE.name()), "node-1",
        NOW.minus(ProvisioningSnapshots.PROMISE_WINDOW).minus(Duration.ofSeconds(1))), 3);
    assertEquals(List.of(), only(existing(longUp, List.of(), List.of(web, alsoUnbound))).nominated(),
        "once its promise is over the pods are pending like any other");
  }

  private static Pod unboundPod(String uid, Map<String, String> labels, int hostPort) {
    var container = new io.fabric8.kubernetes.api.model.ContainerBuilder().withName("a").withImage("x");
    if (hostPort > 0) {
      container.addNewPort().withContainerPort(hostPort).withHostPort(hostPort).endPort();
    }
    return new PodBuilder().withNewMetadata().withName("pod-" + uid).withNamespace("bench").withUid(uid).withLabels(labels)
        .endMetadata().withNewSpec().withContainers(container.build()).endSpec().build();
  }

  /**
   * A replacement launched for a node's 517 pods, Initialized seconds ago: the drain evicted them all, and the pods
   * their controllers made instead are new pods. Nothing it was planned for waits any more, so it holds no room and the
   * new pods are planned onto it; holding the old pods' room sent them to a node launched again for them.
   */
  @Test
  void anInitializedClaimWhosePlannedPodsAreAllGoneHoldsNoRoom() {
    NodeClaim replacement = planned(claim("bench-0", List.of(LARGE.name()), "node-1", NOW.minusSeconds(5)), 517);
    ExistingNodeView view = only(existing(replacement, List.of(), Set.of()));
    assertEquals(Resources.ZERO, view.promised());

    ProvisioningPlan plan = plan(view, pendingPods(341));
    assertEquals(341, plan.onExisting().getFirst().pods().size(), "the evicted pods' successors go on the replacement");
    assertEquals(List.of(), plan.claims());

    ExistingNodeView oneWaits = only(existing(replacement, List.of(), Set.of("u-first-7")));
    assertEquals(Resources.of(517 * 250, 517 * 256 * MIB, 517), oneWaits.promised(), "while one still waits, the promise holds");
  }

  @Test
  void thePlannerReadsTheHardAndSoftEvictionThresholdsOfMemoryAndDisk() {
    var both = kubeletOf(Map.of("memory.available", "300Mi", "nodefs.available", "15%"), Map.of("memory.available", "5%"));
    assertEquals(List.of(EvictionThreshold.ofBytes(300 * MIB), EvictionThreshold.ofPercent(5)), both.memoryEviction());
    assertEquals(List.of(EvictionThreshold.ofPercent(15)), both.nodefsEviction());
    assertEquals(List.of(), kubeletOf(null, null).memoryEviction(), "none: the planner's defaults");
  }

  @Test
  void aWindowsClassHas110MaxPodsUnlessItSetsMaxPods() {
    assertEquals(110, kubeletOf("Windows2022", null, null).maxPods(), "Karpenter's Windows default, not the ENI limit");
    assertEquals(110, kubeletOf(null, "windows2019@latest", null).maxPods(), "the family of the alias");
    assertEquals(30, kubeletOf("Windows2022", null, 30).maxPods());
    assertEquals(null, kubeletOf("AL2023", null, null).maxPods(), "Linux: the ENI limit");
  }

  private static KubeletSettings kubeletOf(String amiFamily, String alias, Integer maxPods) {
    var nodeClass = new EC2NodeClass();
    nodeClass.setSpec(new EC2NodeClassSpec(amiFamily, alias == null ? null : List.of(new dev.farrier.activities.crd.AmiSelectorTerm(
        alias, null, null, null, null)), null, null, null, null,
        maxPods == null ? null : new KubeletConfiguration(null, maxPods, null, null, null, null, null, null, null, null, null, null),
        null, null, null, null, null, null, null));
    return NodeClassLaunches.kubelet(nodeClass);
  }

  private static KubeletSettings kubeletOf(Map<String, String> hard, Map<String, String> soft) {
    var nodeClass = new EC2NodeClass();
    nodeClass.setSpec(new EC2NodeClassSpec(null, null, null, null, null, null,
        new KubeletConfiguration(null, null, null, null, null, hard, soft, null, null, null, null, null), null, null, null, null, null, null,
        null));
    return NodeClassLaunches.kubelet(nodeClass);
  }

  private static ExistingNodeView only(List<ExistingNodeView> views) {
    assertEquals(1, views.size());
    return views.getFirst();
  }

  /** As the sandbox's run had it: the claim's planned pods not bound are still unbound (pending). */
  private static List<ExistingNodeView> existing(NodeClaim claim, List<Pod> bound) {
    Set<String> unbound = new HashSet<>();
    for (int i = 0; i < 517; i++) {
      unbound.add("u-first-" + i);
    }
    bound.forEach(p -> unbound.remove(p.getMetadata().getUid()));
    return existing(claim, bound, unbound);
  }

  private static List<ExistingNodeView> existing(NodeClaim claim, List<Pod> bound, Set<String> unbound) {
    List<Pod> unboundPods = new ArrayList<>();
    for (String uid : unbound) {
      unboundPods.add(new PodBuilder().withNewMetadata().withName("pod-" + uid).withNamespace("bench").withUid(uid)
          .withLabels(Map.of("app", "bench")).endMetadata()
          .withNewSpec().addNewContainer().withName("a").withImage("x").endContainer().endSpec().build());
    }
    return existing(claim, bound, unboundPods);
  }

  private static List<ExistingNodeView> existing(NodeClaim claim, List<Pod> bound, List<Pod> unbound) {
    List<Node> nodes = new ArrayList<>();
    String nodeName = claim.getStatus() == null ? null : claim.getStatus().nodeName();
    if (nodeName != null) {
      nodes.add(Serialization.unmarshal("""
          apiVersion: v1
          kind: Node
          metadata:
            name: %s
            labels: {karpenter.sh/nodepool: bench, topology.kubernetes.io/zone: us-east-1c, kubernetes.io/hostname: %s}
          status:
            allocatable: {cpu: 191450m, memory: 350Gi, pods: "737"}
          """.formatted(nodeName, nodeName), Node.class));
    }
    Map<String, List<InstanceTypeView>> types = Map.of(POOL, List.of(SMALLER, LARGE));
    return ProvisioningSnapshots.existingNodes(nodes, bound, unbound, List.of(claim), types, Map.of(), NO_NAMESPACES, CsiVolumes.NONE, NOW);
  }

  private static ProvisioningPlan plan(ExistingNodeView node, List<PodSpecView> pending) {
    NodePoolView pool = new NodePoolView(POOL, 0, List.of(), Map.of(), List.of(), List.of(), "default", null, null, "h",
        List.of(), null, null);
    Map<String, List<InstanceTypeView>> types = new HashMap<>();
    types.put(POOL, List.of(SMALLER, LARGE));
    ProvisioningSnapshot snapshot = new ProvisioningSnapshot(pending, List.of(pool), types, List.of(), List.of(node), Map.of());
    return new ProvisioningPlanner().plan(snapshot, "batch-1", ClaimNamer.standard());
  }

  /** A claim planned for 517 pods of 250m and 256Mi; with a node name once registered, Initialized at a time. */
  private static NodeClaim claim(String name, List<String> types, String nodeName, Instant initializedAt) {
    NodeClaim claim = new NodeClaim();
    claim.setMetadata(new ObjectMetaBuilder().withName(name)
        .withLabels(new HashMap<>(Map.of(WellKnown.NODEPOOL_LABEL, POOL))).build());
    claim.setSpec(new NodeClaimSpec(
        List.of(RequirementWithMinValues.from(new Requirement(WellKnown.INSTANCE_TYPE_LABEL, "In", types, null))),
        new NodeClaimResources(ResourceQuantities.toQuantities(Resources.of(517 * 250, 517 * 256 * MIB, 517))),
        List.of(), List.of(), NodeClassReference.ec2NodeClass("default"), null, null));
    List<Condition> conditions = initializedAt == null ? List.of()
        : List.of(Condition.of(NodeClaimStatus.INITIALIZED, Condition.TRUE, "Initialized", "", initializedAt));
    claim.setStatus(new NodeClaimStatus(null, null, nodeName, null, null, conditions, null));
    return claim;
  }

  /** The claim with its first {@code count} planned pods' UIDs ({@code u-first-<i>}, as {@link #boundPods} names them). */
  private static NodeClaim planned(NodeClaim claim, int count) {
    claim.getMetadata().setAnnotations(Map.of(WellKnown.PLANNED_PODS_ANNOTATION,
        String.join(",", java.util.stream.IntStream.range(0, count).mapToObj(i -> "u-first-" + i).toList())));
    return claim;
  }

  private static List<Pod> boundPods(int count) {
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      pods.add(Serialization.unmarshal("""
          apiVersion: v1
          kind: Pod
          metadata: {name: first-%d, namespace: bench, uid: u-first-%d}
          spec:
            nodeName: node-1
            containers: [{name: a, image: x, resources: {requests: {cpu: 250m, memory: 256Mi}}}]
          status: {phase: Running}
          """.formatted(i, i), Pod.class));
    }
    return pods;
  }

  private static List<PodSpecView> pendingPods(int count) {
    List<PodSpecView> pods = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      pods.add(PodViews.of(Serialization.unmarshal("""
          apiVersion: v1
          kind: Pod
          metadata: {name: second-%d, namespace: bench, uid: u-second-%d}
          spec:
            containers: [{name: a, image: x, resources: {requests: {cpu: 250m, memory: 256Mi}}}]
          """.formatted(i, i), Pod.class)));
    }
    return pods;
  }

  private static InstanceTypeView type(String name, int vcpu, int memoryGiB, int maxPods) {
    return new InstanceTypeView(name, "amd64", InstanceTypeView.standardLabels(name, vcpu, memoryGiB * 1024L),
        new Resources(vcpu * 1000L, memoryGiB * GIB, 20 * GIB, maxPods, Map.of()),
        List.of(new OfferingView("us-east-1c", "spot", vcpu * 0.01, true)));
  }
}
