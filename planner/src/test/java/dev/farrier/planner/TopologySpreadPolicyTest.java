package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static dev.farrier.planner.SchedulingFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A zone spread's {@code nodeAffinityPolicy} and {@code nodeTaintsPolicy} as the kube-scheduler applies them: which
 * nodes' pods count and which zones are eligible for the skew's minimum. Each case is one pending pod of app web
 * (maxSkew 1) and where it may go: a zone, or "unschedulable".
 */
class TopologySpreadPolicyTest {
  private static final Resources ROOM = cpuMem(4000, 16, 110);

  private static List<PodSpecView> web(String node, int n) {
    List<PodSpecView> pods = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      pods.add(labelled(pod(node + "-web-" + i, 100, 128), Map.of("app", "web")));
    }
    return pods;
  }

  private static ExistingNodeView spotNode(String name, String zone, List<PodSpecView> pods) {
    ExistingNodeView n = node(name, "default", zone, ROOM, pods);
    Map<String, String> labels = new TreeMap<>(n.labels());
    labels.put(WellKnown.CAPACITY_TYPE_LABEL, WellKnown.CAPACITY_SPOT);
    return new ExistingNodeView(n.name(), n.nodePool(), labels, n.taints(), n.allocatable(), n.pods(), n.promised(), true, true);
  }

  private static TopologySpread zones(boolean honorAffinity, boolean honorTaints) {
    return new TopologySpread(WellKnown.ZONE_LABEL, 1, true, null, app("web"), honorAffinity, honorTaints);
  }

  private static PodSpecView pending(TopologySpread spread) {
    return spread(labelled(pod("new-web", 100, 128), Map.of("app", "web")), spread);
  }

  static Stream<Arguments> cases() {
    // Zones a and b hold two web pods each; c none, and the pod's affinity keeps it out of c.
    List<ExistingNodeView> balancedOutsideC = List.of(node("na", "default", "us-east-1a", ROOM, web("na", 2)),
        node("nb", "default", "us-east-1b", ROOM, web("nb", 2)));
    // One web pod in a and b on on-demand nodes, three in c on a spot node; the pod wants on-demand.
    List<ExistingNodeView> spotHeavyC = List.of(node("na", "default", "us-east-1a", ROOM, web("na", 1)),
        node("nb", "default", "us-east-1b", ROOM, web("nb", 1)), spotNode("nc", "us-east-1c", web("nc", 3)));
    // One web pod per zone a, b, c; a tainted node no pool launches in zone d, with none.
    List<ExistingNodeView> taintedD = List.of(node("na", "default", "us-east-1a", ROOM, web("na", 1)),
        node("nb", "default", "us-east-1b", ROOM, web("nb", 1)), node("nc", "default", "us-east-1c", ROOM, web("nc", 1)),
        withTaints(node("nd", "default", "us-east-1d", ROOM, List.of()), List.of(taint("dedicated", "NoSchedule")), true));
    return Stream.of(
        Arguments.of("affinity Honor: zone c is outside the pod's affinity, so not eligible; a and b are even",
            balancedOutsideC, zones(true, false), List.of(List.of(req(WellKnown.ZONE_LABEL, "In", "us-east-1a", "us-east-1b"))),
            Map.of(), "us-east-1a"),
        Arguments.of("affinity Ignore: empty zone c is eligible, so a and b are too full and the pod cannot go",
            balancedOutsideC, zones(false, false), List.of(List.of(req(WellKnown.ZONE_LABEL, "In", "us-east-1a", "us-east-1b"))),
            Map.of(), "unschedulable"),
        Arguments.of("affinity Honor: pods on the spot node do not count, so c is the emptiest zone",
            spotHeavyC, zones(true, false), List.of(), Map.of(WellKnown.CAPACITY_TYPE_LABEL, WellKnown.CAPACITY_ON_DEMAND),
            "us-east-1c"),
        Arguments.of("affinity Ignore: the three pods in c count, so c is the fullest zone",
            spotHeavyC, zones(false, false), List.of(), Map.of(WellKnown.CAPACITY_TYPE_LABEL, WellKnown.CAPACITY_ON_DEMAND),
            "us-east-1a"),
        Arguments.of("taints Ignore (the default): zone d, only on a tainted node, is eligible with none, so no zone is",
            taintedD, zones(true, false), List.of(), Map.of(), "unschedulable"),
        Arguments.of("taints Honor: zone d's only node is not tolerated, so d is not eligible",
            taintedD, zones(true, true), List.of(), Map.of(), "us-east-1a"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void thePoliciesDecideWhichNodesCount(String name, List<ExistingNodeView> nodes, TopologySpread spread,
      List<List<dev.farrier.model.Requirement>> affinity, Map<String, String> selector, String expected) {
    PodSpecView pod = pending(spread);
    pod = new PodSpecView(pod.pod(), pod.requests(), selector, affinity, pod.tolerations(), pod.ownerKind(), pod.doNotDisrupt(),
        pod.labels(), pod.preferredAffinity(), pod.topologySpread(), pod.podAffinity(), pod.volumeRequirements());
    ProvisioningSnapshot s = withNodes(snapshot(List.of(pod), List.of(pool("default")), catalogue()), nodes);
    ProvisioningPlan plan = new ProvisioningPlanner().plan(s, "b", ClaimNamer.standard());
    assertEquals(expected, where(plan, nodes), plan.toString());
  }

  /** The zone the one pod went to, or "unschedulable". */
  private static String where(ProvisioningPlan plan, List<ExistingNodeView> nodes) {
    if (!plan.onExisting().isEmpty()) {
      String node = plan.onExisting().getFirst().node();
      return nodes.stream().filter(n -> n.name().equals(node)).findFirst().orElseThrow().labels().get(WellKnown.ZONE_LABEL);
    }
    if (!plan.claims().isEmpty()) {
      NodeClaimRequest c = plan.claims().getFirst();
      return c.requirements().stream().filter(r -> r.key().equals(WellKnown.ZONE_LABEL)).findFirst().orElseThrow().values().getFirst();
    }
    return "unschedulable";
  }
}
