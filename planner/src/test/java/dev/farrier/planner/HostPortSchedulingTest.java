package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static dev.farrier.planner.SchedulingFixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.ProvisioningPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Host ports as the kube-scheduler's NodePorts filter judges them: two pods whose (host IP, protocol, port) conflict never
 * share a node, whether the node exists, is in flight or is planned, and a DaemonSet's port is taken on every node of
 * its pool.
 */
class HostPortSchedulingTest {
  private final ProvisioningPlanner planner = new ProvisioningPlanner();

  private static PodSpecView asking(String name, HostPort... ports) {
    return pod(name, 100, 128).withHostPorts(List.of(ports));
  }

  private static HostPort port(String ip, String protocol, int port) {
    return new HostPort(ip, protocol, port);
  }

  private ProvisioningPlan plan(List<PodSpecView> pods, ExistingNodeView... nodes) {
    return planner.plan(withNodes(snapshot(pods, List.of(pool("default")), catalogue()), List.of(nodes)), "b", ClaimNamer.standard());
  }

  static Stream<Arguments> pairs() {
    return Stream.of(
        Arguments.of("same port, both on every address", port(null, null, 8080), port(null, null, 8080), 2),
        Arguments.of("same port, TCP made explicit", port("", "TCP", 8080), port(null, null, 8080), 2),
        Arguments.of("same port, different protocols", port(null, "TCP", 53), port(null, "UDP", 53), 1),
        Arguments.of("same port, two different host IPs", port("10.0.0.1", null, 8080), port("10.0.0.2", null, 8080), 1),
        Arguments.of("same port, one host IP and the IPv4 wildcard", port("10.0.0.1", null, 8080), port("0.0.0.0", null, 8080), 2),
        Arguments.of("same port, one host IP and the IPv6 wildcard", port("10.0.0.1", null, 8080), port("::", null, 8080), 2),
        Arguments.of("same port, the same host IP", port("10.0.0.1", "UDP", 8080), port("10.0.0.1", "UDP", 8080), 2),
        Arguments.of("different ports", port(null, null, 8080), port(null, null, 8081), 1));
  }

  @ParameterizedTest(name = "{0}: {3} node(s)")
  @MethodSource("pairs")
  void twoPodsShareANodeOnlyWhenTheirPortsDoNotConflict(String name, HostPort a, HostPort b, int nodes) {
    ProvisioningPlan plan = plan(List.of(asking("a", a), asking("b", b)));
    assertEquals(nodes, plan.claims().size(), plan.toString());
    assertTrue(plan.unschedulable().isEmpty(), plan.toString());
  }

  @Test
  void anExistingNodeWhosePodHoldsThePortTakesOnlyPodsAskingOthers() {
    ExistingNodeView n1 = node("n1", "default", "us-east-1a", cpuMem(4000, 16, 110), List.of(asking("bound", port(null, null, 8080))));
    ProvisioningPlan plan = plan(List.of(asking("same", port(null, null, 8080)), asking("other", port(null, null, 9090))), n1);
    assertEquals(List.of("other"), plan.onExisting().getFirst().pods().stream().map(p -> p.name()).toList(), plan.toString());
    assertEquals(List.of("same"), plan.claims().getFirst().pods().stream().map(p -> p.name()).toList(), plan.toString());
  }

  @Test
  void aPodPlannedOntoAnExistingNodeTakesItsPortThere() {
    ExistingNodeView n1 = node("n1", "default", "us-east-1a", cpuMem(4000, 16, 110), List.of());
    ProvisioningPlan plan = plan(List.of(asking("a", port(null, null, 8080)), asking("b", port(null, null, 8080))), n1);
    assertEquals(1, plan.onExisting().getFirst().pods().size(), plan.toString());
    assertEquals(1, plan.claims().size(), plan.toString());
  }

  @Test
  void aDaemonSetsPortIsTakenOnEveryNewNodeOfItsPool() {
    PodSpecView exporter = withOwner(pod("node-exporter", 100, 128), PodSpecView.OWNER_DAEMON_SET)
        .withHostPorts(List.of(port(null, null, 9100)));
    ProvisioningSnapshot s = new ProvisioningSnapshot(List.of(asking("scraper", port(null, null, 9100)), asking("web", port(null, null, 80))),
        List.of(pool("default")), Map.of("default", catalogue()), List.of(exporter));
    ProvisioningPlan plan = planner.plan(s, "b", ClaimNamer.standard());
    assertEquals(List.of("web"), plan.claims().stream().flatMap(c -> c.pods().stream()).map(p -> p.name()).toList(), plan.toString());
    assertEquals(1, plan.unschedulable().size(), plan.toString());
    assertTrue(plan.unschedulable().getFirst().reason().contains("hostPort 0.0.0.0:9100/TCP is held by a DaemonSet"),
        plan.unschedulable().getFirst().reason());
  }

  /**
   * Whatever the ports, pods and existing nodes: no node or claim of the plan ends up with two pods whose ports
   * conflict, and every pod is placed (a new node is always free of ports).
   */
  @RepeatedTest(50)
  void noNodeOfAPlanHoldsTwoConflictingPorts(RepetitionInfo info) {
    Random random = new Random(info.getCurrentRepetition());
    String[] ips = {null, "0.0.0.0", "10.0.0.1", "10.0.0.2", "::"};
    String[] protocols = {null, "TCP", "UDP"};
    List<PodSpecView> pods = new ArrayList<>();
    for (int i = 0; i < 2 + random.nextInt(30); i++) {
      List<HostPort> ports = new ArrayList<>();
      for (int k = random.nextInt(3); k > 0; k--) {
        ports.add(port(ips[random.nextInt(ips.length)], protocols[random.nextInt(protocols.length)], 8080 + random.nextInt(3)));
      }
      pods.add(pod("p" + i, 50 + random.nextInt(500), 128).withHostPorts(ports));
    }
    List<ExistingNodeView> nodes = new ArrayList<>();
    for (int n = random.nextInt(3); n > 0; n--) {
      nodes.add(node("n" + n, "default", "us-east-1a", cpuMem(4000, 16, 110),
          List.of(asking("bound-" + n, port(ips[random.nextInt(ips.length)], null, 8080 + random.nextInt(3))))));
    }
    ProvisioningPlan plan = plan(pods, nodes.toArray(ExistingNodeView[]::new));
    assertTrue(plan.unschedulable().isEmpty(), plan.toString());
    Map<String, PodSpecView> byName = new java.util.HashMap<>();
    pods.forEach(p -> byName.put(p.pod().name(), p));
    for (NodeClaimRequest c : plan.claims()) {
      assertNoConflict(c.name(), c.pods().stream().map(p -> byName.get(p.name())).toList());
    }
    for (var e : plan.onExisting()) {
      List<PodSpecView> on = new ArrayList<>(nodes.stream().filter(n -> n.name().equals(e.node())).findFirst().orElseThrow().pods());
      e.pods().forEach(p -> on.add(byName.get(p.name())));
      assertNoConflict(e.node(), on);
    }
  }

  private static void assertNoConflict(String node, List<PodSpecView> pods) {
    for (int i = 0; i < pods.size(); i++) {
      for (int j = i + 1; j < pods.size(); j++) {
        Set<String> clash = new TreeSet<>();
        for (HostPort a : pods.get(i).hostPorts()) {
          for (HostPort b : pods.get(j).hostPorts()) {
            if (a.conflictsWith(b)) {
              clash.add(a.describe() + " vs " + b.describe());
            }
          }
        }
        assertTrue(clash.isEmpty(), node + ": " + pods.get(i).pod().name() + " and " + pods.get(j).pod().name() + " " + clash);
      }
    }
  }
}
