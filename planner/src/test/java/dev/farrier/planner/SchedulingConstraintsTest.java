package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static dev.farrier.planner.SchedulingFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.ExistingPlacement;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PodRef;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** One table per constraint the scheduler honours beyond plain requests and node selectors. */
class SchedulingConstraintsTest {
  private final ProvisioningPlanner planner = new ProvisioningPlanner();

  private ProvisioningPlan plan(ProvisioningSnapshot snapshot) {
    return planner.plan(snapshot, "batch-1", ClaimNamer.standard());
  }

  private static ProvisioningSnapshot snap(List<PodSpecView> pods, ExistingNodeView... nodes) {
    return withNodes(snapshot(pods, List.of(pool("default")), catalogue()), List.of(nodes));
  }

  private static List<String> values(NodeClaimRequest claim, String key) {
    return claim.requirements().stream().filter(r -> r.key().equals(key) && r.operator().equals("In"))
        .findFirst().orElseThrow().values();
  }

  private static List<PodSpecView> replicas(String app, int n, long milliCpu, java.util.function.UnaryOperator<PodSpecView> with) {
    List<PodSpecView> pods = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      pods.add(with.apply(labelled(pod(app + "-" + i, milliCpu, 256), Map.of("app", app))));
    }
    return pods;
  }

  /** Where each pod went: a node name, or {@code claim:<zone>} for a claim pinned to one zone. */
  private static Map<String, String> where(ProvisioningPlan plan) {
    Map<String, String> out = new TreeMap<>();
    for (ExistingPlacement e : plan.onExisting()) {
      e.pods().forEach(p -> out.put(p.name(), e.node()));
    }
    for (NodeClaimRequest c : plan.claims()) {
      c.pods().forEach(p -> out.put(p.name(), c.name()));
    }
    return out;
  }

  private static Map<String, Integer> perZone(ProvisioningPlan plan, Map<String, String> existingZones) {
    Map<String, Integer> out = new TreeMap<>();
    for (ExistingPlacement e : plan.onExisting()) {
      out.merge(existingZones.get(e.node()), e.pods().size(), Integer::sum);
    }
    for (NodeClaimRequest c : plan.claims()) {
      List<String> zones = values(c, WellKnown.ZONE_LABEL);
      assertEquals(1, zones.size(), "claim " + c.name() + " pinned to one zone: " + zones);
      out.merge(zones.getFirst(), c.pods().size(), Integer::sum);
    }
    return out;
  }

  // ---- existing nodes and in-flight claims ----

  static Stream<Arguments> existingCases() {
    ExistingNodeView roomy = node("n1", "default", "us-east-1a", cpuMem(4000, 16, 110), List.of());
    ExistingNodeView full = node("n1", "default", "us-east-1a", cpuMem(4000, 16, 110), List.of(pod("busy", 3800, 256)));
    ExistingNodeView inFlight = withTaints(withPromised(node("c1", "default", "us-east-1b", cpuMem(4000, 16, 110), List.of()),
        cpuMem(1000, 1, 0)), List.of(WellKnown.UNREGISTERED_TAINT, taint("node.kubernetes.io/not-ready", "NoSchedule")), false);
    ExistingNodeView inFlightNearlyFull = withPromised(inFlight, cpuMem(3500, 1, 0));
    ExistingNodeView tainted = withTaints(roomy, List.of(taint("dedicated", "NoSchedule")), true);
    return Stream.of(
        Arguments.of("a node with room takes the pod", roomy, "n1"),
        Arguments.of("a full node does not", full, "new claim"),
        Arguments.of("an in-flight claim's transient taints do not block", inFlight, "c1"),
        Arguments.of("an in-flight claim's promised requests are counted", inFlightNearlyFull, "new claim"),
        Arguments.of("a cordoned node takes nothing", cordoned(roomy), "new claim"),
        Arguments.of("a node's taints must be tolerated", tainted, "new claim"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("existingCases")
  void existingCapacityIsUsedFirst(String name, ExistingNodeView node, String expected) {
    ProvisioningPlan plan = plan(snap(List.of(pod("p", 1000, 512)), node));
    String actual = plan.onExisting().isEmpty() ? "new claim" : plan.onExisting().getFirst().node();
    assertEquals(expected, actual);
    assertEquals(expected.equals("new claim") ? 1 : 0, plan.claims().size());
  }

  /**
   * The sandbox's 1,000-pod run: a claim planned for 517 pods of 250m launched as a 192-vCPU, 737-pod type and got its
   * Node; a second batch of 341 such pods came while only some of the 517 were bound. The room left is what neither
   * the promised pods nor the bound ones use, whichever is more: 220 pod slots, not 341.
   */
  @Test
  void podsPromisedToAClaimKeepTheirRoomUntilTheyAreBound() {
    List<PodSpecView> bound = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      bound.add(pod("first-batch-" + i, 250, 256));
    }
    Resources promised = Resources.of(517 * 250, 517 * 256 * Fixtures.MIB, 517);
    ExistingNodeView claimNode = withPromised(node("c6a-48xlarge", "default", "us-east-1c",
        cpuMem(191_450, 340, 737), bound), promised);
    List<PodSpecView> second = new ArrayList<>();
    for (int i = 0; i < 341; i++) {
      second.add(pod("second-batch-" + i, 250, 256));
    }
    ProvisioningPlan plan = plan(snap(second, claimNode));
    assertEquals(737 - 517, plan.onExisting().getFirst().pods().size());
    assertEquals(341 - 220, plan.claims().stream().mapToInt(c -> c.pods().size()).sum());
  }

  /** Once more pods are bound than were promised (others landed there too), the bound ones are what is used. */
  @Test
  void boundPodsBeyondThePromiseAreCountedOnce() {
    List<PodSpecView> bound = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      bound.add(pod("bound-" + i, 100, 128));
    }
    ExistingNodeView n = withPromised(node("n1", "default", "us-east-1a", cpuMem(4000, 16, 40), bound),
        Resources.of(20 * 100, 20 * 128 * Fixtures.MIB, 20));
    List<PodSpecView> pending = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      pending.add(pod("pending-" + i, 100, 128));
    }
    ProvisioningPlan plan = plan(snap(pending, n));
    assertEquals(10, plan.onExisting().getFirst().pods().size(), "40 slots less 30 bound");
  }

  @Test
  void existingNodeLabelsMustMatchTheSelector() {
    ExistingNodeView a = node("n-a", "default", "us-east-1a", cpuMem(4000, 16, 110), List.of());
    ExistingNodeView b = node("n-b", "default", "us-east-1b", cpuMem(4000, 16, 110), List.of());
    PodSpecView p = withSelector(pod("p", 500, 256), Map.of(WellKnown.ZONE_LABEL, "us-east-1b"));
    assertEquals(Map.of("p", "n-b"), where(plan(snap(List.of(p), a, b))));
  }

  @Test
  void readyNodesAreFilledBeforeInFlightClaims() {
    ExistingNodeView ready = node("z-ready", "default", "us-east-1a", cpuMem(4000, 16, 110), List.of());
    ExistingNodeView launching = withTaints(node("a-launching", "default", "us-east-1a", cpuMem(4000, 16, 110), List.of()), List.of(), false);
    assertEquals(Map.of("p", "z-ready"), where(plan(snap(List.of(pod("p", 500, 256)), launching, ready))));
  }

  // ---- kubelet settings ----

  static Stream<Arguments> kubeletCases() {
    return Stream.of(
        Arguments.of("ENI max pods (29 on m5.large) fit 10 tiny pods on one claim", KubeletSettings.DEFAULTS, 1),
        Arguments.of("maxPods 4 needs three claims", new KubeletSettings(4, null, null, null, null), 3),
        Arguments.of("podsPerCore 2 caps a 2-vCPU type at 4", new KubeletSettings(null, 2, null, null, null), 3));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubeletCases")
  void kubeletSettingsCapPodsPerNode(String name, KubeletSettings kubelet, int claims) {
    List<PodSpecView> pods = replicas("tiny", 10, 10, p -> p);
    List<InstanceTypeView> smallOnly = catalogue().stream().filter(t -> t.name().endsWith(".large")).toList();
    ProvisioningSnapshot s = withKubelet(snapshot(pods, List.of(pool("default")), smallOnly), "default", kubelet);
    assertEquals(claims, plan(s).claims().size());
  }

  @Test
  void kubeReservedFromTheNodeClassReplacesTheDefault() {
    KubeletSettings big = new KubeletSettings(null, null, cpuMem(1500, 1, 0), null, null);
    PodSpecView p = pod("p", 1000, 256);
    ProvisioningSnapshot s = withKubelet(snapshot(List.of(p), List.of(pool("default")), catalogue()), "default", big);
    // 2-vCPU types keep 500m after 1500m kube-reserved: the pod needs a 4-vCPU type.
    assertTrue(plan(s).claims().getFirst().instanceTypes().stream().noneMatch(t -> t.endsWith(".large")));
  }

  // ---- preferred node affinity ----

  static Stream<Arguments> preferenceCases() {
    PreferredNodeTerm zoneB = new PreferredNodeTerm(50, List.of(req(WellKnown.ZONE_LABEL, "In", "us-east-1b")));
    PreferredNodeTerm zoneC = new PreferredNodeTerm(10, List.of(req(WellKnown.ZONE_LABEL, "In", "us-east-1c")));
    PreferredNodeTerm windows = new PreferredNodeTerm(80, List.of(req(WellKnown.OS_LABEL, "In", "windows")));
    return Stream.of(
        Arguments.of("a satisfiable preference is honoured", List.of(zoneB), List.of("us-east-1b")),
        Arguments.of("an impossible preference is given up", List.of(windows), Fixtures.ZONES),
        Arguments.of("conflicting preferences: the lowest weight goes first", List.of(zoneC, zoneB), List.of("us-east-1b")),
        Arguments.of("the lighter impossible one is given up first", List.of(windows5(), zoneC), List.of("us-east-1c")),
        Arguments.of("a lighter possible one goes before a heavier impossible one", List.of(windows, zoneC), Fixtures.ZONES));
  }

  private static PreferredNodeTerm windows5() {
    return new PreferredNodeTerm(5, List.of(req(WellKnown.OS_LABEL, "In", "windows")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("preferenceCases")
  void preferredNodeAffinity(String name, List<PreferredNodeTerm> terms, List<String> zones) {
    PodSpecView p = preferring(pod("p", 500, 256), terms.toArray(PreferredNodeTerm[]::new));
    ProvisioningPlan plan = plan(snap(List.of(p)));
    assertEquals(zones, values(plan.claims().getFirst(), WellKnown.ZONE_LABEL));
  }

  // ---- topology spread ----

  @Test
  void zoneSpreadPinsClaimsAndBalancesZones() {
    ProvisioningPlan plan = plan(snap(replicas("web", 6, 1500, p -> spread(p, zoneSpread("web", 1)))));
    assertEquals(Map.of("us-east-1a", 2, "us-east-1b", 2, "us-east-1c", 2), perZone(plan, Map.of()));
  }

  @Test
  void zoneSpreadCountsExistingPods() {
    List<PodSpecView> running = replicas("web", 2, 100, p -> p).stream().map(p -> inNamespace(p, "default")).toList();
    ExistingNodeView fullA = node("n-a", "default", "us-east-1a", cpuMem(300, 1, 110), running);
    ProvisioningPlan plan = plan(snap(replicas("web-new", 4, 1500, p -> labelled(spread(p, zoneSpread("web", 1)), Map.of("app", "web"))),
        fullA));
    // a has 2 already: b and c get 2 each before a could get more.
    assertEquals(Map.of("us-east-1b", 2, "us-east-1c", 2), perZone(plan, Map.of("n-a", "us-east-1a")));
  }

  @Test
  void minDomainsAboveTheZonesThereAreCountsTheMinimumAsZero() {
    TopologySpread c = new TopologySpread(WellKnown.ZONE_LABEL, 1, true, 5, app("web"));
    ProvisioningPlan plan = plan(snap(replicas("web", 5, 1500, p -> spread(p, c))));
    assertEquals(3, plan.claims().size());
    assertEquals(2, plan.unschedulable().size());
    assertTrue(plan.unschedulable().getFirst().reason().contains("topology spread on topology.kubernetes.io/zone (maxSkew 1)"),
        plan.unschedulable().getFirst().reason());
  }

  static Stream<Arguments> unsatisfiableCases() {
    return Stream.of(Arguments.of(true, 0), Arguments.of(false, 1));
  }

  @ParameterizedTest(name = "DoNotSchedule={0}")
  @MethodSource("unsatisfiableCases")
  void whenUnsatisfiable(boolean doNotSchedule, int placed) {
    // The pool can only launch in a; a already has 2 matching pods and b (an existing full node) has none.
    NodePoolView onlyA = pool("default", 0, List.of(req(WellKnown.ZONE_LABEL, "In", "us-east-1a")), List.of());
    List<PodSpecView> running = replicas("web", 2, 100, p -> p);
    ExistingNodeView a = node("n-a", "default", "us-east-1a", cpuMem(300, 1, 110), running);
    ExistingNodeView b = node("n-b", "default", "us-east-1b", cpuMem(100, 1, 110), List.of(pod("other", 100, 64)));
    TopologySpread c = new TopologySpread(WellKnown.ZONE_LABEL, 1, doNotSchedule, null, app("web"));
    PodSpecView p = spread(labelled(pod("new", 500, 256), Map.of("app", "web")), c);
    ProvisioningPlan plan = plan(withNodes(snapshot(List.of(p), List.of(onlyA), catalogue()), List.of(a, b)));
    assertEquals(placed, plan.claims().size());
    if (doNotSchedule) {
      assertTrue(plan.unschedulable().getFirst().reason().contains("topology spread on topology.kubernetes.io/zone"),
          plan.unschedulable().getFirst().reason());
    }
  }

  static Stream<Arguments> hostSpreadCases() {
    return Stream.of(Arguments.of(1, 5), Arguments.of(2, 3), Arguments.of(5, 1));
  }

  @ParameterizedTest(name = "maxSkew {0} -> {1} nodes")
  @MethodSource("hostSpreadCases")
  void hostnameSpreadLimitsMatchingPodsPerNode(int maxSkew, int nodes) {
    ProvisioningPlan plan = plan(snap(replicas("web", 5, 100, p -> spread(p, hostSpread("web", maxSkew)))));
    assertEquals(nodes, plan.claims().size());
    plan.claims().forEach(c -> assertTrue(c.pods().size() <= maxSkew));
  }

  @Test
  void capacityTypeSpreadUsesSpotAndOnDemand() {
    TopologySpread c = new TopologySpread(WellKnown.CAPACITY_TYPE_LABEL, 1, true, null, app("web"));
    ProvisioningPlan plan = plan(snap(replicas("web", 2, 1500, p -> spread(p, c))));
    List<String> types = plan.claims().stream().map(cl -> values(cl, WellKnown.CAPACITY_TYPE_LABEL).getFirst()).sorted().toList();
    assertEquals(List.of(WellKnown.CAPACITY_ON_DEMAND, WellKnown.CAPACITY_SPOT), types);
  }

  // ---- pod affinity and anti-affinity ----

  @Test
  void hostnameAntiAffinityPutsEachReplicaOnItsOwnNode() {
    ProvisioningPlan plan = plan(snap(replicas("db", 3, 100, p -> affinity(p, required(WellKnown.HOSTNAME_LABEL, "db", true)))));
    assertEquals(3, plan.claims().size());
  }

  @Test
  void anExistingPodsAntiAffinityKeepsMatchingPodsAway() {
    PodSpecView guard = affinity(labelled(pod("guard", 100, 64), Map.of("app", "guard")),
        required(WellKnown.HOSTNAME_LABEL, "web", true));
    ExistingNodeView n1 = node("n1", "default", "us-east-1a", cpuMem(4000, 16, 110), List.of(guard));
    ExistingNodeView n2 = node("n2", "default", "us-east-1a", cpuMem(4000, 16, 110), List.of());
    PodSpecView web = labelled(pod("web", 500, 256), Map.of("app", "web"));
    assertEquals(Map.of("web", "n2"), where(plan(snap(List.of(web), n1, n2))));
  }

  @Test
  void zoneAffinityFollowsAnExistingPod() {
    ExistingNodeView b = node("n-b", "default", "us-east-1b", cpuMem(200, 1, 110), List.of(labelled(pod("db-0", 100, 64), Map.of("app", "db"))));
    PodSpecView client = affinity(pod("client", 1500, 256), required(WellKnown.ZONE_LABEL, "db", false));
    ProvisioningPlan plan = plan(snap(List.of(client), b));
    assertEquals(List.of("us-east-1b"), values(plan.claims().getFirst(), WellKnown.ZONE_LABEL));
  }

  @Test
  void selfSelectingZoneAffinityKeepsReplicasInOneZone() {
    ProvisioningPlan plan = plan(snap(replicas("cache", 6, 1500, p -> affinity(p, required(WellKnown.ZONE_LABEL, "cache", false)))));
    assertEquals(1, perZone(plan, Map.of()).size());
    assertEquals(6, perZone(plan, Map.of()).values().iterator().next());
  }

  @Test
  void affinityToAPodThatIsNowhereIsUnschedulableAndSaysWhy() {
    PodSpecView client = affinity(pod("client", 500, 256), required(WellKnown.ZONE_LABEL, "db", false));
    ProvisioningPlan plan = plan(snap(List.of(client)));
    assertEquals(0, plan.claims().size());
    assertTrue(plan.unschedulable().getFirst().reason().contains("pod affinity on topology.kubernetes.io/zone leaves no"),
        plan.unschedulable().getFirst().reason());
  }

  @Test
  void hostnameAffinityJoinsTheNodeOfTheMatchingPod() {
    ExistingNodeView n1 = node("n1", "default", "us-east-1a", cpuMem(4000, 16, 110), List.of(labelled(pod("db-0", 100, 64), Map.of("app", "db"))));
    ExistingNodeView n2 = node("n2", "default", "us-east-1a", cpuMem(4000, 16, 110), List.of());
    PodSpecView sidecar = affinity(pod("sidecar", 500, 256), required(WellKnown.HOSTNAME_LABEL, "db", false));
    PodSpecView tooBig = affinity(pod("too-big", 8000, 256), required(WellKnown.HOSTNAME_LABEL, "db", false));
    ProvisioningPlan plan = plan(snap(List.of(sidecar, tooBig), n2, n1));
    assertEquals(Map.of("sidecar", "n1"), where(plan));
    assertTrue(plan.unschedulable().getFirst().reason().contains("pod affinity on kubernetes.io/hostname needs a node with a matching pod"),
        plan.unschedulable().getFirst().reason());
  }

  @Test
  void preferredAntiAffinityIsGivenUpWhenItCannotHold() {
    // Two replicas prefer separate hosts: while a second claim is possible, the preference holds.
    ProvisioningPlan plan = plan(snap(replicas("web", 2, 100, p -> affinity(p, preferred(WellKnown.HOSTNAME_LABEL, "web", true, 10)))));
    assertEquals(2, plan.claims().size());
    // With the pool at its limit after one claim, the preference is relaxed and both share it.
    NodePoolView limited = withLimits(pool("default"), new NodePoolLimits(2000L, null, null, null, Map.of()), Resources.ZERO);
    List<InstanceTypeView> small = catalogue().stream().filter(t -> t.name().equals("m5.large")).toList();
    ProvisioningPlan relaxed = plan(snapshot(replicas("web", 2, 100, p -> affinity(p, preferred(WellKnown.HOSTNAME_LABEL, "web", true, 10))),
        List.of(limited), small));
    assertEquals(1, relaxed.claims().size());
    assertEquals(2, relaxed.claims().getFirst().pods().size());
  }

  // ---- volumes ----

  @Test
  void volumeZoneNarrowsTheClaim() {
    PodSpecView p = volumes(pod("p", 500, 256), req(WellKnown.ZONE_LABEL, "In", "us-east-1c"));
    assertEquals(List.of("us-east-1c"), values(plan(snap(List.of(p))).claims().getFirst(), WellKnown.ZONE_LABEL));
  }

  @Test
  void volumeZoneConflictingWithTheSelectorIsNamed() {
    PodSpecView p = volumes(withSelector(pod("p", 500, 256), Map.of(WellKnown.ZONE_LABEL, "us-east-1a")),
        req(WellKnown.ZONE_LABEL, "In", "us-east-1c"));
    ProvisioningPlan plan = plan(snap(List.of(p)));
    assertTrue(plan.unschedulable().getFirst().reason().contains("volume topology topology.kubernetes.io/zone In [us-east-1c]"),
        plan.unschedulable().getFirst().reason());
  }

  // ---- limits ----

  @Test
  void claimsCountAgainstLimitsAtTheLargestTypeTheyList() {
    // cpu limit 6: the first claim lists 2- and 4-vCPU types, so it counts 4 and the second claim may only be 2.
    NodePoolView limited = withLimits(pool("default"), new NodePoolLimits(6000L, null, null, null, Map.of()), Resources.ZERO);
    List<InstanceTypeView> types = catalogue().stream().filter(t -> t.name().startsWith("m5.") && !t.name().equals("m5.2xlarge")).toList();
    // Anti-affinity keeps the two pods on separate claims.
    List<PodSpecView> pods = replicas("x", 2, 1500, p -> affinity(p, required(WellKnown.HOSTNAME_LABEL, "x", true)));
    ProvisioningPlan plan = plan(snapshot(pods, List.of(limited), types));
    assertEquals(List.of("m5.large", "m5.xlarge"), plan.claims().getFirst().instanceTypes());
    assertEquals(List.of("m5.large"), plan.claims().get(1).instanceTypes());
  }

  @Test
  void aGpuPodGetsTheGpuTypeAndOthersStayOff() {
    PodSpecView gpu = withRequests(pod("gpu", 1000, 1024), new Resources(1000, GIB, 0, 1, Map.of("nvidia.com/gpu", 1L)));
    ProvisioningPlan plan = plan(snap(List.of(gpu, pod("web", 1000, 1024))));
    NodeClaimRequest gpuClaim = plan.claims().stream().filter(c -> c.pods().stream().map(PodRef::name).toList().contains("gpu")).findFirst().orElseThrow();
    assertEquals(List.of("g5.xlarge"), gpuClaim.instanceTypes());
  }
}
