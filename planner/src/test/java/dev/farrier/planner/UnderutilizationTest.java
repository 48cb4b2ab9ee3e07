package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.PodRef;
import dev.farrier.model.Resources;
import dev.farrier.model.Toleration;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

/**
 * Consolidation of underutilized nodes with the provisioning scheduler: a node whose pods fit on the other nodes is
 * deleted, several at once when they all fit (multi-node), one whose pods need one cheaper node is replaced with a price
 * ceiling, and every candidate not consolidated says why (would not fit, not cheaper, spot, PDB, budget).
 */
class UnderutilizationTest {
  static final List<ResolvedImages> IMAGES = List.of(new ResolvedImages("default", "amd64", List.of("ami-new")));
  static final List<InstanceTypeView> TYPES = List.of(
      type("m5.large", "amd64", 2, 8, 29, 0.096),
      type("m5.xlarge", "amd64", 4, 16, 58, 0.192),
      type("m5.2xlarge", "amd64", 8, 32, 58, 0.384));

  /** A node of {@code type} with pods of {@code milliCpu} each, and its claim. */
  record Node(NodeClaimView claim, ExistingNodeView view) {}

  static Node node(String name, String type, String capacityType, long... podMilliCpu) {
    return node(name, TYPES.stream().filter(x -> x.name().equals(type)).findFirst().orElseThrow(), capacityType, podMilliCpu);
  }

  static Node node(String name, InstanceTypeView t, String capacityType, long... podMilliCpu) {
    List<PodSpecView> pods = new ArrayList<>();
    for (int i = 0; i < podMilliCpu.length; i++) {
      pods.add(pod(name + "-p" + i, podMilliCpu[i], 256));
    }
    return node(name, t, capacityType, pods);
  }

  /** A node of {@code t} with these pods, summarised for its claim as the planning activity does. */
  static Node node(String name, InstanceTypeView t, String capacityType, List<PodSpecView> pods) {
    return node(name, t, capacityType, pods, "us-east-1a");
  }

  static Node node(String name, InstanceTypeView t, String capacityType, List<PodSpecView> pods, String zone) {
    return node(name, t, capacityType, pods, zone, false);
  }

  static Node node(String name, InstanceTypeView t, String capacityType, List<PodSpecView> pods, String zone,
      boolean tainted) {
    String type = t.name();
    Map<String, String> labels = new TreeMap<>(t.labels());
    labels.put(WellKnown.HOSTNAME_LABEL, "node-" + name);
    labels.put(WellKnown.ZONE_LABEL, zone);
    labels.put(WellKnown.CAPACITY_TYPE_LABEL, capacityType);
    labels.put(WellKnown.NODEPOOL_LABEL, "default");
    var view = new ExistingNodeView("node-" + name, "default", labels, List.of(), t.allocatable(KubeletSettings.DEFAULTS), pods,
        Resources.ZERO, true, true);
    var claim = new NodeClaimView(name, "default", "default", "node-" + name, "i-" + name, "ami-new", "amd64", "hash-default",
        capacityType, type, zone, true, true, false, tainted, false, false, NOW - HOUR, null, null, null,
        PodsOnNode.of(pods), false, false).withPodEvents(NOW - HOUR, NOW - HOUR, null);
    return new Node(claim, view);
  }

  static Node node(String name, String type, long... podMilliCpu) {
    return node(name, type, WellKnown.CAPACITY_ON_DEMAND, podMilliCpu);
  }

  private static NodePoolView pool() {
    return Fixtures.pool("default").withConsolidation("WhenEmptyOrUnderutilized", "0s");
  }

  static DisruptionSnapshot snapshot(NodePoolView pool, Map<String, Double> cost, Map<String, String> pdb, Node... nodes) {
    return snapshot(pool, TYPES, cost, pdb, nodes);
  }

  static DisruptionSnapshot snapshot(NodePoolView pool, List<InstanceTypeView> types, Map<String, Double> cost,
      Map<String, String> pdb, Node... nodes) {
    var view = new ConsolidationView(List.of(nodes).stream().map(Node::view).toList(), Map.of("default", types), List.of(), Map.of(),
        pdb, cost);
    return new DisruptionSnapshot(NOW, List.of(pool), List.of(nodes).stream().map(Node::claim).toList(), IMAGES, Map.of(), view);
  }

  private static DisruptionPlan plan(Node... nodes) {
    return new DisruptionPlanner().plan(snapshot(pool(), Map.of(), Map.of(), nodes));
  }

  static String decision(DisruptionPlan plan, String claim) {
    return plan.decisions().stream().filter(d -> d.nodeClaim().equals(claim)).map(CandidateDecision::reason).findFirst().orElseThrow();
  }

  @Test
  void aNodeWhosePodsFitOnAnotherIsDeletedOneARound() {
    var plan = plan(node("a", "m5.xlarge", 500), node("b", "m5.xlarge", 500));
    assertEquals(1, plan.commands().size(), plan.toString());
    DisruptionCommand c = plan.commands().getFirst();
    assertEquals("a", c.nodeClaim());
    assertEquals(DisruptionMethod.DELETE, c.method());
    assertEquals("underutilized", c.reason());
    assertEquals("its 1 pod fits on the other nodes", c.detail());
    assertTrue(c.consolidation());
    assertTrue(decision(plan, "b").contains("underutilized but another consolidation was chosen this round (a)"), decision(plan, "b"));
  }

  /** Two pods asking the same hostPort never end up on one node: neither node is deleted onto the other. */
  @Test
  void nodesWhosePodsHoldTheSameHostPortAreNotPackedTogether() {
    var twoAtATime = withBudgets(Fixtures.pool("default"), List.of(DisruptionBudget.of("2")))
        .withConsolidation("WhenEmptyOrUnderutilized", "0s");
    InstanceTypeView xlarge = TYPES.get(1);
    List<PodSpecView> portA = List.of(pod("a-agent", 500, 256).withHostPorts(List.of(new HostPort(null, null, 9100))));
    List<PodSpecView> portB = List.of(pod("b-agent", 500, 256).withHostPorts(List.of(new HostPort(null, null, 9100))));
    var plan = new DisruptionPlanner().plan(snapshot(twoAtATime, Map.of(), Map.of(),
        node("a", xlarge, WellKnown.CAPACITY_ON_DEMAND, portA), node("b", xlarge, WellKnown.CAPACITY_ON_DEMAND, portB)));
    for (DisruptionCommand c : plan.commands()) {
      assertEquals(DisruptionMethod.REPLACE, c.method(), plan.toString());
      assertEquals(List.of(), c.consolidatedWith(), plan.toString());
    }

    List<PodSpecView> otherPort = List.of(pod("b-agent", 500, 256).withHostPorts(List.of(new HostPort(null, null, 9101))));
    var apart = new DisruptionPlanner().plan(snapshot(twoAtATime, Map.of(), Map.of(),
        node("a", xlarge, WellKnown.CAPACITY_ON_DEMAND, portA), node("b", xlarge, WellKnown.CAPACITY_ON_DEMAND, otherPort)));
    assertEquals(List.of("b"), apart.commands().getFirst().consolidatedWith(), "with other ports they go together: " + apart);
  }

  @Test
  void severalNodesWhosePodsAllFitOnTheRestAreDeletedTogetherCheapestToDisruptFirst() {
    var twoAtATime = withBudgets(Fixtures.pool("default"), List.of(DisruptionBudget.of("2")))
        .withConsolidation("WhenEmptyOrUnderutilized", "0s");
    var plan = new DisruptionPlanner().plan(snapshot(twoAtATime, Map.of("node-big", 5.0, "node-a", 1.0, "node-b", 1.0), Map.of(),
        node("a", "m5.xlarge", 500), node("b", "m5.xlarge", 500), node("big", "m5.2xlarge", 500)));
    assertEquals(Set.of("a", "b"), plan.commands().stream().map(DisruptionCommand::nodeClaim).collect(Collectors.toSet()), plan.toString());
    assertTrue(plan.commands().getFirst().detail().startsWith("multi-node: the pods of 2 nodes (a, b) fit on the other nodes"));
    assertTrue(decision(plan, "big").contains("another consolidation was chosen this round (multi-node of 2)"), decision(plan, "big"));
  }

  @Test
  void severalNodesWhosePodsOneCheaperNodeHoldsAreReplacedByIt() {
    var threeAtATime = withBudgets(Fixtures.pool("default"), List.of(DisruptionBudget.of("3")))
        .withConsolidation("WhenEmptyOrUnderutilized", "0s");
    // 1.5 CPU on each of three 4-CPU nodes: nowhere else to go, and one 8-CPU node ($0.384) is under the three ($0.576).
    var plan = new DisruptionPlanner().plan(snapshot(threeAtATime, Map.of(), Map.of(),
        node("a", "m5.xlarge", 1500), node("b", "m5.xlarge", 1500), node("c", "m5.xlarge", 1500)));
    assertEquals(1, plan.commands().size(), plan.toString());
    DisruptionCommand c = plan.commands().getFirst();
    assertEquals("a", c.nodeClaim());
    assertEquals(DisruptionMethod.REPLACE, c.method());
    assertEquals(List.of("b", "c"), c.consolidatedWith());
    assertEquals(0.576, c.maxPricePerHour(), 1e-9, "the ceiling is the group's summed price");
    assertTrue(c.detail().startsWith("multi-node: replace 3 nodes (a, b, c) with one cheaper node: $0.5760/h to "), c.detail());
    assertTrue(c.detail().contains("(m5.2xlarge) for their 3 pods"), c.detail());
    assertTrue(decision(plan, "b").contains("consolidated with a into one cheaper node (multi-node of 3)"), decision(plan, "b"));

    // Checked again as the replacement's workflow does, weighing the group alone: it still stands.
    var again = new DisruptionPlanner().recheck(snapshot(threeAtATime, Map.of(), Map.of(),
        node("a", "m5.xlarge", 1500), node("b", "m5.xlarge", 1500), node("c", "m5.xlarge", 1500)), Set.of("a", "b", "c"));
    assertEquals(List.of("b", "c"), again.commands().getFirst().consolidatedWith(), again.toString());
    // Weighing the lead alone (how a single-node consolidation is checked), the group is not seen.
    var alone = new DisruptionPlanner().recheck(snapshot(threeAtATime, Map.of(), Map.of(),
        node("a", "m5.xlarge", 1500), node("b", "m5.xlarge", 1500), node("c", "m5.xlarge", 1500)), "a");
    assertTrue(alone.commands().getFirst().consolidatedWith().isEmpty(), alone.toString());

    // With a budget of one, no group: each alone is replaced by a smaller node.
    var single = plan(node("a", "m5.xlarge", 1500), node("b", "m5.xlarge", 1500), node("c", "m5.xlarge", 1500));
    assertTrue(single.commands().getFirst().consolidatedWith().isEmpty(), single.toString());
  }

  /**
   * Two half-empty m5.large nodes: one m5.large holds both nodes' pods for less than the two cost, but that is one of
   * the nodes already there. Keeping it and deleting the other moves one pod instead of two and launches nothing;
   * replacing both with a new m5.large made each later round see the same pair again (a new node and the one left),
   * and launch another.
   */
  @Test
  void aGroupIsNotReplacedByANodeOfOneOfItsOwnTypesButTheOtherNodeIsDeleted() {
    var twoAtATime = withBudgets(Fixtures.pool("default"), List.of(DisruptionBudget.of("2")))
        .withConsolidation("WhenEmptyOrUnderutilized", "0s");
    var plan = new DisruptionPlanner().plan(snapshot(twoAtATime, onDemandOnly(TYPES), Map.of("node-a", 1.0, "node-b", 2.0), Map.of(),
        node("a", "m5.large", 600), node("b", "m5.large", 600)));
    assertEquals(1, plan.commands().size(), plan.toString());
    DisruptionCommand c = plan.commands().getFirst();
    assertEquals(DisruptionMethod.DELETE, c.method(), c.toString());
    assertEquals("a", c.nodeClaim());
    assertEquals("its 1 pod fits on the other nodes", c.detail());
  }

  /**
   * A group is still replaced when one node cheaper than the group's own node of that type holds them all: the ceiling
   * is that node's price, not the pair's.
   */
  @Test
  void aGroupWhoseOwnTypeWouldHoldItIsReplacedOnlyByANodeCheaperThanThatType() {
    List<InstanceTypeView> types = new ArrayList<>(onDemandOnly(TYPES));
    types.add(onDemandOnly(List.of(type("c5.large", "amd64", 2, 4, 29, 0.085))).getFirst());
    var twoAtATime = withBudgets(Fixtures.pool("default"), List.of(DisruptionBudget.of("2")))
        .withConsolidation("WhenEmptyOrUnderutilized", "0s");
    var plan = new DisruptionPlanner().plan(snapshot(twoAtATime, types, Map.of("node-a", 1.0, "node-b", 2.0), Map.of(),
        node("a", "m5.large", 1000), node("b", "m5.large", 500)));
    assertEquals(1, plan.commands().size(), plan.toString());
    DisruptionCommand c = plan.commands().getFirst();
    assertEquals(DisruptionMethod.REPLACE, c.method(), c.toString());
    assertEquals(List.of("b"), c.consolidatedWith());
    assertEquals(0.096, c.maxPricePerHour(), 1e-9, "the ceiling is the price of the group's own m5.large, not the pair's");
    assertTrue(c.detail().contains("to $0.0850/h (c5.large) for their 2 pods"), c.detail());
  }

  private static List<InstanceTypeView> onDemandOnly(List<InstanceTypeView> types) {
    return types.stream().map(t -> new InstanceTypeView(t.name(), t.arch(), t.labels(), t.capacity(),
        t.offerings().stream().filter(o -> WellKnown.CAPACITY_ON_DEMAND.equals(o.capacityType())).toList())).toList();
  }

  @Test
  void aGroupIsFoundWhenOnlyAllOfTheCandidatesAreCheaperAsOneNode() {
    // On-demand only, as the e2e NodePool: a cheaper spot node would make the smaller groups cheaper too.
    List<InstanceTypeView> onDemand = onDemandOnly(TYPES);
    var threeAtATime = withBudgets(Fixtures.pool("default"), List.of(DisruptionBudget.of("3")))
        .withConsolidation("WhenEmptyOrUnderutilized", "0s");
    // In order of disruption cost: a and b need an 8-CPU node ($0.384) dearer than they are ($0.288), so no smaller
    // group holds, while a, b and c ($0.480) fit that node together. Alone, a's pod fits beside c's.
    var plan = new DisruptionPlanner().plan(snapshot(threeAtATime, onDemand, Map.of("node-a", 1.0, "node-b", 2.0, "node-c", 3.0),
        Map.of(), node("a", "m5.large", 1500), node("b", "m5.xlarge", 1000, 1000, 1000), node("c", "m5.xlarge", 1500)));
    assertEquals(1, plan.commands().size(), plan.toString());
    DisruptionCommand c = plan.commands().getFirst();
    assertEquals(DisruptionMethod.REPLACE, c.method(), c.toString());
    assertEquals("a", c.nodeClaim());
    assertEquals(List.of("b", "c"), c.consolidatedWith());
    assertEquals(0.48, c.maxPricePerHour(), 1e-9);
    assertTrue(c.detail().contains("(m5.2xlarge) for their 5 pods"), c.detail());
  }

  @Test
  void twoNodesAreEnoughForAGroupAndNodesOutsideItSayAnotherWasChosen() {
    var threeAtATime = withBudgets(Fixtures.pool("default"), List.of(DisruptionBudget.of("3")))
        .withConsolidation("WhenEmptyOrUnderutilized", "0s");
    var two = new DisruptionPlanner().plan(snapshot(threeAtATime, Map.of(), Map.of(),
        node("a", "m5.xlarge", 1500), node("b", "m5.xlarge", 1500)));
    assertEquals(List.of("b"), two.commands().getFirst().consolidatedWith(), two.toString());
    // One m5.xlarge would hold both nodes' pods: the new node must be cheaper than one of them, not than the pair.
    assertEquals(0.192, two.commands().getFirst().maxPricePerHour(), 1e-9);

    // d is full (no home for the others' pods) and past the budget of three: the group is a, b, c.
    var four = new DisruptionPlanner().plan(snapshot(threeAtATime, Map.of(), Map.of(),
        node("a", "m5.xlarge", 1500), node("b", "m5.xlarge", 1500), node("c", "m5.xlarge", 1500), node("d", "m5.large", 1900)));
    assertEquals(List.of("b", "c"), four.commands().getFirst().consolidatedWith(), four.toString());
    assertTrue(decision(four, "d").contains("underutilized but another consolidation was chosen this round (multi-node of 3)"),
        decision(four, "d"));
  }

  /**
   * Three nodes whose pods spread over zones, one node in each zone: one node in one zone for all of them would break
   * the spread, so the rest of the group could not follow the first, and the new node, underutilized, was replaced
   * again round after round. Each is replaced within its own zone instead; in one zone the group goes together.
   */
  @Test
  void podsSpreadOverZonesAreNotReplacedTogetherAcrossZones() {
    var threeAtATime = withBudgets(Fixtures.pool("default"), List.of(DisruptionBudget.of("3")))
        .withConsolidation("WhenEmptyOrUnderutilized", "0s");
    InstanceTypeView xlarge = TYPES.get(1);
    var acrossZones = new DisruptionPlanner().plan(snapshot(threeAtATime, Map.of(), Map.of(),
        spreadNode("a", xlarge, "us-east-1a"), spreadNode("b", xlarge, "us-east-1b"), spreadNode("c", xlarge, "us-east-1c")));
    assertEquals(1, acrossZones.commands().size(), acrossZones.toString());
    DisruptionCommand single = acrossZones.commands().getFirst();
    assertEquals(List.of(), single.consolidatedWith(), single.toString());
    assertTrue(single.detail().startsWith("replace with a cheaper node"), single.detail());

    var oneZone = new DisruptionPlanner().plan(snapshot(threeAtATime, Map.of(), Map.of(),
        spreadNode("a", xlarge, "us-east-1b"), spreadNode("b", xlarge, "us-east-1b"), spreadNode("c", xlarge, "us-east-1b")));
    assertEquals(List.of("b", "c"), oneZone.commands().getFirst().consolidatedWith(), oneZone.toString());
  }

  private static Node spreadNode(String name, InstanceTypeView t, String zone) {
    var web = SchedulingFixtures.labelled(SchedulingFixtures.spread(pod(name + "-web", 1500, 256), SchedulingFixtures.zoneSpread("web", 1)),
        Map.of("app", "web"));
    return node(name, t, WellKnown.CAPACITY_ON_DEMAND, List.of(web), zone);
  }

  /** A node already being disrupted (tainted), its pods not yet moved. */
  private static Node goingAway(Node n) {
    return new Node(node(n.claim().name(), TYPES.stream().filter(t -> t.name().equals(n.claim().instanceType())).findFirst().orElseThrow(),
        n.claim().capacityType(), n.view().pods(), n.claim().zone(), true).claim().withReplacementActive(true), n.view());
  }

  /**
   * A consolidation still in its recheck (its workflow runs, the node not tainted yet) is not a node going away: two
   * commands a round apart then invalidated each other at their rechecks, round after round. Its room is planned as
   * any node's; its own recheck, or the later command's once it is tainted, settles which goes.
   */
  @Test
  void aNodeWhoseConsolidationIsStillBeingCheckedIsNotGoingAwayYet() {
    var a = node("a", "m5.xlarge", 1000);
    var b = node("b", "m5.xlarge", 2500);
    var x = node("x", "m5.xlarge", 1000);
    var checking = new Node(x.claim().withReplacementActive(true), x.view());
    var plan = allAtOnce(a, b, checking);
    assertEquals(List.of("a"), plan.commands().stream().map(DisruptionCommand::nodeClaim).toList(), plan.toString());
    // Counted as going away, x's pod would need b's room and a would be replaced alone (the test above); not yet, a and b
    // go together onto one node, x's room taking a's pod.
    assertEquals(List.of("b"), plan.commands().getFirst().consolidatedWith(), plan.toString());
  }

  /**
   * The pods still on a node going away need homes too, as in upstream's simulation: x's 1000m pod takes b's room, so
   * a's pod no longer fits there and a is replaced by a cheaper node, not deleted. Planned without x's pod, a was
   * deleted into the room x's pod was about to take, and the kube-scheduler left one of them pending for a new node.
   */
  @Test
  void thePodsOfANodeGoingAwayNeedRoomTooSoACandidateIsNotDeletedIntoIt() {
    var a = node("a", "m5.xlarge", 1000);
    var b = node("b", "m5.xlarge", 2500);
    var x = node("x", "m5.xlarge", 1000);
    assertEquals(DisruptionMethod.DELETE, plan(a, b).commands().getFirst().method(), "alone, a's pod fits on b");

    var plan = allAtOnce(a, b, goingAway(x));
    assertEquals(1, plan.commands().size(), plan.toString());
    DisruptionCommand c = plan.commands().getFirst();
    assertEquals("a", c.nodeClaim());
    assertEquals(DisruptionMethod.REPLACE, c.method(), plan.toString());
    assertTrue(c.detail().endsWith("for its 1 pod"), c.detail());
  }

  private static DisruptionPlan allAtOnce(Node... nodes) {
    var pool = withBudgets(Fixtures.pool("default"), List.of(DisruptionBudget.of("100%"))).withConsolidation("WhenEmptyOrUnderutilized", "0s");
    return new DisruptionPlanner().plan(snapshot(pool, Map.of(), Map.of(), nodes));
  }

  /** A candidate that is the only home of a going-away node's pod stays, and says so. */
  @Test
  void aCandidateThatIsTheOnlyHomeOfAGoingAwayNodesPodsStays() {
    var b = node("b", "m5.2xlarge", 500);
    var x = node("x", "m5.xlarge", 3500);
    assertEquals(DisruptionMethod.REPLACE, plan(b).commands().getFirst().method(), "alone, b is replaced by a cheaper node");

    var plan = allAtOnce(b, goingAway(x));
    assertTrue(plan.commands().isEmpty(), plan.toString());
    assertTrue(decision(plan, "b").contains("underutilized but pod default/x-p0, on a node going away, would then need a new node (the pods of nodes going away come first)"), decision(plan, "b"));
  }

  @Test
  void aNodeWhosePodsArePromisedToAReplacementWaitsForIt() {
    var promised = Map.of("node-b", "its pods are promised to nodeclaim r, which holds room for them");
    var b = node("b", "m5.2xlarge", 500);
    var view = new ConsolidationView(List.of(b.view()), Map.of("default", TYPES), List.of(), Map.of(), Map.of(), Map.of(), false, promised);
    var plan = new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(pool()), List.of(b.claim()), IMAGES, Map.of(), view));
    assertTrue(plan.commands().isEmpty(), plan.toString());
    assertTrue(decision(plan, "b").contains("underutilized but its pods are promised to nodeclaim r"), decision(plan, "b"));
  }

  /**
   * The rest of a multi-node replacement: x was launched for its group's pods (its lead's 500m, now on it, and f's
   * 1300m) and is ready, its lead gone. f goes first, though it is the dearest to disrupt, and its pod fits on x. By
   * disruption cost alone the round deleted x, the new node, whose pod fits beside f's: the group's pods moved twice
   * and f stayed.
   */
  @Test
  void theRestOfAGroupGoesFirstToTheNodeLaunchedForItsPods() {
    var x = node("x", "m5.large", 500);
    var f = node("f", "m5.large", 1300);
    var c = node("c", "m5.large", 1000);
    var plan = withHomes(Map.of("node-x", 1.0, "node-c", 2.0, "node-f", 5.0), Map.of("node-f", "node-x"), x, f, c);

    assertEquals(1, plan.commands().size(), plan.toString());
    DisruptionCommand rest = plan.commands().getFirst();
    assertEquals("f", rest.nodeClaim(), plan.toString());
    assertEquals(DisruptionMethod.DELETE, rest.method());
    assertEquals("the rest of a multi-node consolidation: its 1 pod fits on the other nodes (node node-x was launched for them)",
        rest.detail());
    assertTrue(decision(plan, "x").contains("another consolidation was chosen this round (f)"), decision(plan, "x"));
  }

  private static DisruptionPlan withHomes(Map<String, Double> cost, Map<String, String> homes, Node... nodes) {
    var view = new ConsolidationView(List.of(nodes).stream().map(Node::view).toList(), Map.of("default", TYPES), List.of(), Map.of(),
        Map.of(), cost, false, Map.of(), List.of(), homes);
    return new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(pool()), List.of(nodes).stream().map(Node::claim).toList(),
        IMAGES, Map.of(), view));
  }

  /** A NodePool whose budget allows no disruption now keeps the rest of a group as it keeps any node (the planner
   * leaves such candidates out before consolidating). */
  @Test
  void theRestOfAGroupWaitsForItsNodePoolsBudget() {
    var none = withBudgets(Fixtures.pool("default"), List.of(DisruptionBudget.of("0"))).withConsolidation("WhenEmptyOrUnderutilized", "0s");
    var x = node("x", "m5.large", 500);
    var f = node("f", "m5.large", 1300);
    var view = new ConsolidationView(List.of(x.view(), f.view()), Map.of("default", TYPES), List.of(), Map.of(), Map.of(), Map.of(), false,
        Map.of(), List.of(), Map.of("node-f", "node-x"));
    var plan = new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(none), List.of(x.claim(), f.claim()), IMAGES, Map.of(), view));
    assertTrue(plan.commands().isEmpty(), plan.toString());
  }

  /** When the rest of a group fits nowhere (f's pod is larger than any other node's room), the round goes on as usual. */
  @Test
  void theRestOfAGroupThatDoesNotFitHoldsNothingUp() {
    var x = node("x", "m5.large", 1800);
    var f = node("f", "m5.large", 1900);
    var c = node("c", "m5.large", 700);
    var d = node("d", "m5.large", 100);
    var plan = withHomes(Map.of("node-x", 1.0, "node-c", 2.0, "node-d", 3.0, "node-f", 5.0), Map.of("node-f", "node-x"), x, f, c, d);

    assertEquals(List.of("x"), plan.commands().stream().map(DisruptionCommand::nodeClaim).toList(), plan.toString());
    assertEquals("its 1 pod fits on the other nodes", plan.commands().getFirst().detail());
  }

  @Test
  void aNodeWhosePodsNeedOneCheaperNodeIsReplacedUnderItsPrice() {
    var plan = plan(node("big", "m5.2xlarge", 500));
    DisruptionCommand c = plan.commands().getFirst();
    assertEquals(DisruptionMethod.REPLACE, c.method());
    assertEquals(0.384, c.maxPricePerHour(), 1e-9);
    assertTrue(c.detail().startsWith("replace with a cheaper node: $0.3840/h to $0.0384/h (m5.large"), c.detail());
  }

  /**
   * A pod the capacity split pinned to on-demand (farrier.dev/on-demand-min: its nodeSelector says
   * karpenter.sh/capacity-type: on-demand) keeps its on-demand node through consolidation: the replacement is planned
   * at the on-demand price of the smaller type, never at its spot price as for an unpinned pod.
   */
  @Test
  void aPodPinnedToOnDemandIsConsolidatedOntoOnDemandOnly() {
    var pinned = Fixtures.withSelector(pod("big-p0", 500, 256), Map.of(WellKnown.CAPACITY_TYPE_LABEL, WellKnown.CAPACITY_ON_DEMAND));
    var plan = new DisruptionPlanner().plan(snapshot(pool(), Map.of(), Map.of(),
        node("big", TYPES.get(2), WellKnown.CAPACITY_ON_DEMAND, List.of(pinned))));
    DisruptionCommand c = plan.commands().getFirst();
    assertEquals(DisruptionMethod.REPLACE, c.method());
    assertTrue(c.detail().startsWith("replace with a cheaper node: $0.3840/h to $0.0960/h (m5.large"), c.detail());
  }

  /** Consolidation weighs the prices NodeOverlays give, of the node being replaced and of its replacements. */
  @Test
  void consolidationSeesTheOverlaidPriceOfTheNodeAndItsReplacements() {
    var pool = pool();
    var onDemand = Fixtures.pool("default", 0, List.of(req(WellKnown.CAPACITY_TYPE_LABEL, "In", "on-demand")), List.of())
        .withConsolidation("WhenEmptyOrUnderutilized", "0s");
    var doubled = NodeOverlays.resolve(List.of(new NodeOverlayView("dear", 1,
        List.of(req(WellKnown.INSTANCE_TYPE_LABEL, "In", "m5.2xlarge")), "+100%", Map.of())), Map.of(new NodeOverlays.Pool("default", Map.of()), TYPES));
    var plan = new DisruptionPlanner().plan(snapshot(pool, doubled.apply(pool, TYPES), Map.of(), Map.of(), node("big", "m5.2xlarge", 500)));
    assertEquals(0.768, plan.commands().getFirst().maxPricePerHour(), 1e-9, "the ceiling is the node's overlaid price, twice $0.384");

    // Every smaller type made dearer than the node: its replacement is no longer cheaper, so it stays.
    var dearer = NodeOverlays.resolve(List.of(new NodeOverlayView("small-dear", 1,
        List.of(req(WellKnown.INSTANCE_TYPE_LABEL, "In", "m5.large", "m5.xlarge")), "0.5", Map.of())),
        Map.of(new NodeOverlays.Pool("default", Map.of()), TYPES));
    var kept = new DisruptionPlanner().plan(snapshot(onDemand, dearer.apply(onDemand, TYPES), Map.of(), Map.of(),
        node("big", "m5.2xlarge", 500)));
    assertTrue(kept.commands().isEmpty(), kept.toString());
    assertTrue(decision(kept, "big").contains("underutilized but not cheaper: no node under its price of $0.3840/h"), decision(kept, "big"));
  }

  @Test
  void aReplacementThatIsNotCheaperIsNoConsolidation() {
    var onDemandOnly = Fixtures.pool("default", 0, List.of(req(WellKnown.CAPACITY_TYPE_LABEL, "In", "on-demand")), List.of())
        .withConsolidation("WhenEmptyOrUnderutilized", "0s");
    var plan = new DisruptionPlanner().plan(snapshot(onDemandOnly, Map.of(), Map.of(), node("a", "m5.large", 1500)));
    assertTrue(plan.commands().isEmpty());
    assertTrue(decision(plan, "a").contains("underutilized but not cheaper: no node under its price of $0.0960/h holds its 1 pod"),
        decision(plan, "a"));
  }

  @Test
  void aSpotNodeIsOnlyDeletedNeverReplaced() {
    var plan = plan(node("s", "m5.2xlarge", WellKnown.CAPACITY_SPOT, 500));
    assertTrue(plan.commands().isEmpty());
    assertTrue(decision(plan, "s").contains("a spot node is consolidated only by deletion"), decision(plan, "s"));
    var withRoom = new DisruptionPlanner().plan(snapshot(pool(), Map.of("node-b", 2.0, "node-s", 1.0), Map.of(),
        node("s", "m5.2xlarge", WellKnown.CAPACITY_SPOT, 500), node("b", "m5.2xlarge", 500, 500)));
    assertEquals(List.of("s"), withRoom.commands().stream().map(DisruptionCommand::nodeClaim).toList(), "deleted when its pods fit");
  }

  /** A big spot node with one small pod, and a catalogue of {@code cheaper} small types whose spot offerings cost less. */
  private static DisruptionPlan spotToSpot(int cheaper, boolean gate) {
    List<InstanceTypeView> types = new ArrayList<>();
    InstanceTypeView big = type("m5.8xlarge", "amd64", 32, 128, 234, 1.536);
    types.add(big);
    for (int i = 0; i < cheaper; i++) {
      // Spot at 0.4 x price: every one under the big node's $0.6144/h, t0 the cheapest.
      types.add(type("t" + i + ".large", "amd64", 2, 8, 29, 0.05 + 0.01 * i));
    }
    var n = node("s", big, WellKnown.CAPACITY_SPOT, 500);
    var view = new ConsolidationView(List.of(n.view()), Map.of("default", types), List.of(), Map.of(), Map.of(), Map.of(), gate);
    return new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(pool()), List.of(n.claim()), IMAGES, Map.of(), view));
  }

  @Test
  void withSpotToSpotOnASpotNodeIsReplacedUnderItsSpotPriceWhenFifteenCheaperSpotTypesHoldItsPods() {
    var plan = spotToSpot(20, true);
    DisruptionCommand c = plan.commands().getFirst();
    assertEquals(DisruptionMethod.REPLACE, c.method(), plan.toString());
    assertEquals(1.536 * 0.4, c.maxPricePerHour(), 1e-9, "the ceiling is the node's own spot price");
    assertTrue(c.detail().startsWith("replace with a cheaper node: $0.6144/h to $0.0200/h (t0.large and 14 other types)"), c.detail());

    var off = spotToSpot(20, false);
    assertTrue(off.commands().isEmpty(), "the gate is off by default");
    assertTrue(decision(off, "s").contains("spot-to-spot consolidation is off"), decision(off, "s"));
  }

  @Test
  void withSpotToSpotOnFewerThanFifteenCheaperSpotTypesLeaveTheNodeAndSaySo() {
    var plan = spotToSpot(14, true);
    assertTrue(plan.commands().isEmpty(), plan.toString());
    assertTrue(decision(plan, "s").contains("spot-to-spot consolidation needs 15 cheaper spot instance types that hold its pods,"
        + " found 14"), decision(plan, "s"));
    assertEquals(DisruptionMethod.REPLACE, spotToSpot(15, true).commands().getFirst().method(), "15 are enough");
  }

  @Test
  void podsThatFitNowhereElseKeepTheirNode() {
    // The pod needs a label only its own node has: no other node and no NodePool can take it.
    var special = node("a", "m5.xlarge", 500);
    Map<String, String> labels = new TreeMap<>(special.view().labels());
    labels.put("special", "yes");
    var pod = withSelector(special.view().pods().getFirst(), Map.of("special", "yes"));
    var view = new ExistingNodeView(special.view().name(), "default", labels, List.of(), special.view().allocatable(), List.of(pod),
        Resources.ZERO, true, true);
    var plan = plan(new Node(special.claim(), view), node("b", "m5.2xlarge", 500));
    assertTrue(decision(plan, "a").contains("underutilized but its pods would not fit elsewhere: default/a-p0"), decision(plan, "a"));
  }

  @Test
  void aPdbAllowingNoEvictionABudgetOfZeroDoNotDisruptAndWhenEmptyHoldIt() {
    var pdb = new DisruptionPlanner().plan(snapshot(pool(), Map.of(), Map.of("node-a", "PodDisruptionBudget default/web allows no"
        + " eviction of pod default/a-p0 now"), node("a", "m5.xlarge", 500), node("b", "m5.2xlarge", 500)));
    assertEquals(List.of("b"), pdb.commands().stream().map(DisruptionCommand::nodeClaim).toList());
    assertTrue(decision(pdb, "a").contains("underutilized but PodDisruptionBudget default/web allows no eviction"), decision(pdb, "a"));

    var noBudget = withBudgets(Fixtures.pool("default"), List.of(DisruptionBudget.of("0", "Underutilized")))
        .withConsolidation("WhenEmptyOrUnderutilized", "0s");
    var held = new DisruptionPlanner().plan(snapshot(noBudget, Map.of(), Map.of(), node("a", "m5.xlarge", 500), node("b", "m5.xlarge", 500)));
    assertTrue(held.commands().isEmpty());
    assertTrue(decision(held, "a").contains("underutilized but budget exhausted: budget 0 allows 0"), decision(held, "a"));

    var whenEmpty = Fixtures.pool("default").withConsolidation("WhenEmpty", "0s");
    assertTrue(new DisruptionPlanner().plan(snapshot(whenEmpty, Map.of(), Map.of(), node("a", "m5.xlarge", 500),
        node("b", "m5.xlarge", 500))).commands().isEmpty());
  }

  @Test
  void aPodWithoutAControllerKeepsItsNodeOutOfConsolidationUnlessItToleratesTheDisruptedTaint() {
    InstanceTypeView xlarge = TYPES.get(1);
    PodSpecView owned = pod("a-p0", 500, 256);
    PodSpecView bare = new PodSpecView(new PodRef("default", "a-bare", "uid-a-bare"), Resources.of(100, 64 * MIB, 1), Map.of(),
        List.of(), List.of(), null, false);
    // a's pods would fit on b, as b's on a: a would go first (cheaper to disrupt), but its drain would hold the bare pod.
    var plan = new DisruptionPlanner().plan(snapshot(pool(), Map.of("node-a", 1.0, "node-b", 2.0), Map.of(),
        node("a", xlarge, WellKnown.CAPACITY_ON_DEMAND, List.of(owned, bare)), node("b", "m5.xlarge", 500)));
    assertEquals(List.of("b"), plan.commands().stream().map(DisruptionCommand::nodeClaim).toList(), plan.toString());
    assertTrue(decision(plan, "a").contains("underutilized but pod default/a-bare has no controller: a drain would hold it"),
        decision(plan, "a"));

    // A pod tolerating karpenter.sh/disrupted is left on the node by the drain, not held: it does not keep the node.
    PodSpecView tolerating = new PodSpecView(bare.pod(), bare.requests(), Map.of(), List.of(),
        List.of(new Toleration(WellKnown.DISRUPTED_TAINT_KEY, "Exists", null, null)), null, false);
    var left = new DisruptionPlanner().plan(snapshot(pool(), Map.of("node-a", 1.0, "node-b", 2.0), Map.of(),
        node("a", xlarge, WellKnown.CAPACITY_ON_DEMAND, List.of(owned, tolerating)), node("b", "m5.xlarge", 500)));
    assertEquals(List.of("a"), left.commands().stream().map(DisruptionCommand::nodeClaim).toList(), left.toString());
  }

  @Test
  void noNodeIsConsolidatedWhilePendingPodsNeedANewNodeButPodsThatFitOrFitNowhereDoNotHoldIt() {
    Node a = node("a", "m5.xlarge", 500);
    Node b = node("b", "m5.xlarge", 500);
    PodSpecView big = pod("big", 7_000, 256); // no node has 7 CPUs free: it needs an m5.2xlarge
    var waiting = new DisruptionPlanner().plan(withPending(List.of(big), a, b));
    assertTrue(waiting.commands().isEmpty(), waiting.toString());
    assertTrue(decision(waiting, "a").contains("underutilized but pending pod default/big needs a new node: consolidation waits"),
        decision(waiting, "a"));

    PodSpecView small = pod("small", 100, 64); // fits on a or b as they are: the kube-scheduler places it
    PodSpecView nowhere = withSelector(pod("nowhere", 100, 64), Map.of("special", "yes")); // no NodePool can take it
    var going = new DisruptionPlanner().plan(withPending(List.of(small, nowhere), a, b));
    assertEquals(List.of("a"), going.commands().stream().map(DisruptionCommand::nodeClaim).toList(), going.toString());
  }

  private static DisruptionSnapshot withPending(List<PodSpecView> pending, Node... nodes) {
    var view = new ConsolidationView(List.of(nodes).stream().map(Node::view).toList(), Map.of("default", TYPES), List.of(), Map.of(),
        Map.of(), Map.of(), false, Map.of(), pending, Map.of());
    return new DisruptionSnapshot(NOW, List.of(pool()), List.of(nodes).stream().map(Node::claim).toList(), IMAGES, Map.of(), view);
  }

  /**
   * A consolidation checked again stands only as it was planned: a replacement whose pod now fits on the other nodes is
   * not launched (the next round deletes the node), nor one planned with another group or for another reason.
   */
  @Test
  void aRecheckStandsOnlyForTheSameReasonMethodAndGroup() {
    var plan = new DisruptionPlanner().recheck(snapshot(pool(), Map.of(), Map.of(), node("a", "m5.xlarge", 500),
        node("b", "m5.xlarge", 500)), "a");
    assertEquals(null, DisruptionPlanner.noLongerStands(plan, "a", "underutilized", DisruptionMethod.DELETE, List.of()));
    assertEquals(null, DisruptionPlanner.noLongerStands(plan, "a", "underutilized", null, List.of()));
    assertEquals("planned again as a delete, not a replace (its 1 pod fits on the other nodes)",
        DisruptionPlanner.noLongerStands(plan, "a", "underutilized", DisruptionMethod.REPLACE, List.of()));
    assertEquals("planned with another group ([], not [b])",
        DisruptionPlanner.noLongerStands(plan, "a", "underutilized", DisruptionMethod.DELETE, List.of("b")));
    assertEquals("no longer planned for drifted", DisruptionPlanner.noLongerStands(plan, "a", "drifted", DisruptionMethod.DELETE, List.of()));
  }

  @Test
  void aRecheckWeighsTheClaimItWasPlannedFor() {
    var snapshot = snapshot(pool(), Map.of(), Map.of(), node("a", "m5.xlarge", 500), node("b", "m5.xlarge", 500));
    assertEquals(List.of("a"), new DisruptionPlanner().plan(snapshot).commands().stream().map(DisruptionCommand::nodeClaim).toList());
    assertEquals(List.of("b"), new DisruptionPlanner().recheck(snapshot, "b").commands().stream().map(DisruptionCommand::nodeClaim)
        .toList());
  }

  /**
   * On random fleets: never more consolidations than the budget allows, the pods of every node deleted fit on the nodes
   * left, and a replacement is only ever planned under the price of the node it replaces, for a node whose pods one
   * cheaper node holds.
   */
  @RepeatedTest(200)
  void consolidationNeverExceedsBudgetsNeverStrandsPodsAndNeverRaisesPrice(RepetitionInfo repetition) {
    Random random = new Random(repetition.getCurrentRepetition());
    List<Node> fleet = new ArrayList<>();
    int count = 2 + random.nextInt(6);
    Map<String, Double> cost = new HashMap<>();
    for (int i = 0; i < count; i++) {
      String type = TYPES.get(random.nextInt(TYPES.size())).name();
      long[] pods = new long[1 + random.nextInt(3)];
      for (int p = 0; p < pods.length; p++) {
        pods[p] = 100 + random.nextInt(1500);
      }
      fleet.add(node("n" + i, type, random.nextBoolean() ? WellKnown.CAPACITY_SPOT : WellKnown.CAPACITY_ON_DEMAND, pods));
      cost.put("node-n" + i, random.nextDouble() * 3);
    }
    int budget = 1 + random.nextInt(3);
    var pool = withBudgets(Fixtures.pool("default"), List.of(DisruptionBudget.of(String.valueOf(budget), "Underutilized")))
        .withConsolidation("WhenEmptyOrUnderutilized", "0s");
    var snapshot = snapshot(pool, cost, Map.of(), fleet.toArray(Node[]::new));
    var plan = new DisruptionPlanner().plan(snapshot);

    assertTrue(plan.commands().size() <= budget, plan.commands() + " over a budget of " + budget);
    Set<String> deleted = plan.commands().stream().filter(c -> c.method() == DisruptionMethod.DELETE)
        .map(DisruptionCommand::nodeName).collect(Collectors.toSet());
    if (!deleted.isEmpty()) {
      List<PodSpecView> moved = fleet.stream().filter(n -> deleted.contains(n.view().name())).flatMap(n -> n.view().pods().stream()).toList();
      List<ExistingNodeView> left = fleet.stream().map(Node::view).filter(v -> !deleted.contains(v.name())).toList();
      var check = new ProvisioningPlanner().plan(new ProvisioningSnapshot(moved, List.of(pool), Map.of("default", TYPES), List.of(), left,
          Map.of()), "check", ClaimNamer.standard());
      assertTrue(check.claims().isEmpty() && check.unschedulable().isEmpty(), "pods of " + deleted + " strand: " + check);
    }
    for (DisruptionCommand c : plan.commands().stream().filter(c -> c.method() == DisruptionMethod.REPLACE).toList()) {
      // A single node, or a multi-node group: the lead and the claims it was consolidated with.
      List<Node> group = fleet.stream().filter(n -> n.claim().name().equals(c.nodeClaim()) || c.consolidatedWith().contains(n.claim().name()))
          .toList();
      assertEquals(1 + c.consolidatedWith().size(), group.size(), "every member of the group is in the fleet");
      assertTrue(plan.commands().size() == 1 || c.consolidatedWith().isEmpty(), "a multi-node replace is the round's only command");
      double price = 0;
      List<PodSpecView> pods = new ArrayList<>();
      for (Node replaced : group) {
        assertEquals(WellKnown.CAPACITY_ON_DEMAND, replaced.claim().capacityType(), "a spot node is never replaced");
        price += TYPES.stream().filter(t -> t.name().equals(replaced.claim().instanceType())).findFirst().orElseThrow().offerings()
            .stream().filter(o -> o.capacityType().equals(WellKnown.CAPACITY_ON_DEMAND)).findFirst().orElseThrow().pricePerHour();
        pods.addAll(replaced.view().pods());
      }
      assertTrue(c.maxPricePerHour() <= price + 1e-9, "the ceiling is at most the node's (the group's) own price");
      for (Node replaced : c.consolidatedWith().isEmpty() ? List.<Node>of() : group) {
        double own = TYPES.stream().filter(t -> t.name().equals(replaced.claim().instanceType())).findFirst().orElseThrow().offerings()
            .stream().filter(o -> o.capacityType().equals(WellKnown.CAPACITY_ON_DEMAND)).findFirst().orElseThrow().pricePerHour();
        assertTrue(c.maxPricePerHour() <= own + 1e-9 || !fitsOne(replaced.claim().instanceType(), pods, pool),
            "a group one of whose own nodes would hold it is replaced only by a node cheaper than that one: " + c);
      }
      var cheaper = CheaperOfferings.below(TYPES, c.maxPricePerHour());
      var check = new ProvisioningPlanner().planReplacement(new ReplacementSnapshot(c.nodeClaim(), "check", pods, pool,
          cheaper, List.of(), Resources.ZERO, KubeletSettings.DEFAULTS));
      assertTrue(check.replacement() != null && check.replacement().pods().size() == pods.size(),
          "one node under the ceiling holds its pods: " + check);
      assertTrue(ClaimPrice.perHour(check.replacement(), cheaper) < price, "cheaper than " + price);
    }
  }

  /** Whether one node of {@code type} (any offering) holds all of {@code pods}. */
  private static boolean fitsOne(String type, List<PodSpecView> pods, NodePoolView pool) {
    var only = TYPES.stream().filter(t -> t.name().equals(type)).toList();
    var plan = new ProvisioningPlanner().planReplacement(new ReplacementSnapshot("fits", "check", pods, pool, only, List.of(),
        Resources.ZERO, KubeletSettings.DEFAULTS));
    return plan.replacement() != null && plan.replacement().pods().size() == pods.size();
  }
}
