package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.ReplacementPlan;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Static NodePools ({@code spec.replicas}): scale-up, scale-down, never consolidated, replaced one for one. */
class StaticPoolsTest {
  private static final ClaimNamer NAMER = ClaimNamer.standard();

  static NodePoolView staticPool(String name, long replicas, Long nodeLimit) {
    NodePoolView p = pool(name).withConsolidation(NodePoolView.WHEN_EMPTY_OR_UNDERUTILIZED, "0s").withReplicas(replicas);
    return nodeLimit == null ? p
        : withLimits(p, new NodePoolLimits(null, null, null, null, Map.of(NodePoolView.NODES_LIMIT, nodeLimit)), Resources.ZERO)
            .withReplicas(replicas);
  }

  private static StaticPools.Launches launch(NodePoolView pool, List<String> zones, int deleting) {
    return StaticPools.launches(List.of(new StaticPools.PoolState(pool, zones, deleting)), Map.of(pool.name(), catalogue()),
        List.of(), Map.of(), "provision/c/static/run-1", NAMER);
  }

  private static String zoneOf(NodeClaimRequest claim) {
    return claim.requirements().stream().filter(r -> WellKnown.ZONE_LABEL.equals(r.key())).findFirst().orElseThrow()
        .values().getFirst();
  }

  private static NodeClaimView inZone(NodeClaimView c, String zone) {
    return new NodeClaimView(c.name(), c.nodePool(), c.nodeClassName(), c.nodeName(), c.instanceId(), c.imageId(), c.arch(),
        c.nodePoolHash(), c.capacityType(), c.instanceType(), zone, c.registered(), c.initialized(), c.deleting(),
        c.disruptedTaint(), c.aborted(), c.doNotDisrupt(), c.createdAtMillis(), c.driftedSinceMillis(), c.expireAfter(),
        c.terminationGracePeriodSeconds(), c.pods());
  }

  @Test
  void scaleUpLaunchesTheMissingClaimsFromTheTemplateSpreadOverTheZonesTheNodePoolHasFewestIn() {
    // Two claims in us-east-1a already: three more go to 1b, 1c, then 1b (fewest first, then by name).
    var launches = launch(staticPool("fixed", 5, null), List.of("us-east-1a", "us-east-1a"), 0);

    assertEquals(List.of("us-east-1b", "us-east-1c", "us-east-1b"), launches.claims().stream().map(StaticPoolsTest::zoneOf).toList());
    NodeClaimRequest first = launches.claims().getFirst();
    assertEquals("fixed", first.nodePool());
    assertEquals(List.of(), first.pods(), "a static claim is made for no pod");
    assertEquals("m6g.large", first.instanceTypes().getFirst(), "every allowed type, cheapest first");
    assertEquals(catalogue().size(), first.instanceTypes().size());
    assertEquals("fixed", first.labels().get(WellKnown.NODEPOOL_LABEL));
    assertTrue(launches.stayingShort().isEmpty());
  }

  @Test
  void aPoolAtItsReplicasLaunchesNothingAndOneAboveIsNotScaledUp() {
    assertTrue(launch(staticPool("fixed", 2, null), List.of("us-east-1a", "us-east-1b"), 0).claims().isEmpty());
    assertTrue(launch(staticPool("fixed", 1, null), List.of("us-east-1a", "us-east-1b"), 0).claims().isEmpty());
  }

  @Test
  void theZoneRequirementIsTheOnlySourceOfZones() {
    NodePoolView oneZone = staticPool("fixed", 3, null).withRequirement(req(WellKnown.ZONE_LABEL, "In", "us-east-1c"));

    var launches = launch(oneZone, List.of(), 0);

    assertEquals(List.of("us-east-1c", "us-east-1c", "us-east-1c"), launches.claims().stream().map(StaticPoolsTest::zoneOf).toList());
  }

  @Test
  void limitsNodesCapsTheScaleUpCountingClaimsBeingDeletedAndSaysWhy() {
    // replicas 5, limit 4: 1 present and 1 being deleted leave room for 2.
    var launches = launch(staticPool("fixed", 5, 4L), List.of("us-east-1a"), 1);

    assertEquals(2, launches.claims().size());
    assertTrue(launches.stayingShort().get("fixed").startsWith("replicas 5 exceed limits.nodes 4"), launches.stayingShort().toString());
  }

  @Test
  void aPoolWhoseRequirementsNoTypeMeetsStaysShortWithTheReason() {
    NodePoolView impossible = staticPool("fixed", 2, null).withRequirement(req(WellKnown.INSTANCE_TYPE_LABEL, "In", "x9.huge"));

    var launches = launch(impossible, List.of(), 0);

    assertTrue(launches.claims().isEmpty());
    assertNotNull(launches.stayingShort().get("fixed"));
  }

  /** Seeded random pools: never past replicas or limits.nodes, and zones balanced within one when starting empty. */
  @Test
  void scaleUpNeverExceedsReplicasOrTheNodeLimitAndKeepsZonesWithinOne() {
    for (long seed = 1; seed <= 300; seed++) {
      Random random = new Random(seed);
      long replicas = random.nextInt(12);
      Long limit = random.nextBoolean() ? null : (long) random.nextInt(15);
      int present = random.nextInt(6);
      int deleting = random.nextInt(3);
      List<String> zones = new ArrayList<>();
      for (int i = 0; i < present; i++) {
        zones.add(ZONES.get(random.nextInt(ZONES.size())));
      }
      var launches = launch(staticPool("p", replicas, limit), zones, deleting);
      int launched = launches.claims().size();
      String at = "seed " + seed + " replicas " + replicas + " limit " + limit + " present " + present + " deleting " + deleting;
      assertTrue(present + launched <= Math.max(present, replicas), at);
      if (limit != null) {
        assertTrue(launched == 0 || present + deleting + launched <= limit, at);
      }
      long expected = Math.max(0, Math.min(replicas - present, limit == null ? Long.MAX_VALUE : limit - present - deleting));
      assertEquals(expected, launched, at);
      if (present == 0) {
        Map<String, Long> perZone = launches.claims().stream().collect(Collectors.groupingBy(StaticPoolsTest::zoneOf, TreeMap::new,
            Collectors.counting()));
        long max = perZone.values().stream().mapToLong(Long::longValue).max().orElse(0);
        long min = launched < ZONES.size() ? 0 : perZone.values().stream().mapToLong(Long::longValue).min().orElse(0);
        assertTrue(max - min <= 1, at + " zones " + perZone);
      }
    }
  }

  @Test
  void anEmptyNodeIsScaledDownFirst() {
    NodePoolView pool = staticPool("fixed", 1, null);
    NodeClaimView busy = withPods(claim("busy", "fixed"), new PodsOnNode(3, 2, List.of()));
    NodeClaimView empty = withPods(claim("empty", "fixed"), new PodsOnNode(1, 0, List.of()));

    assertEquals(List.of("empty"), StaticPools.surplus(pool, List.of(busy, empty)).stream().map(NodeClaimView::name).toList());
  }

  @Test
  void theScaleDownPrefersNodesWithoutDoNotDisruptThenFewestPodsThenTheOldest() {
    NodePoolView pool = staticPool("fixed", 1, null);
    NodeClaimView guarded = withPods(claim("a-guarded", "fixed"), new PodsOnNode(2, 1, List.of("ns/keep")));
    NodeClaimView many = withPods(claim("b-many", "fixed"), new PodsOnNode(6, 5, List.of()));
    NodeClaimView fewOld = withTimes(withPods(claim("c-few-old", "fixed"), new PodsOnNode(2, 1, List.of())), NOW - 5 * HOUR, null);
    NodeClaimView fewYoung = withPods(claim("d-few-young", "fixed"), new PodsOnNode(2, 1, List.of()));
    NodeClaimView launching = withFlags(claim("e-launching", "fixed"), false, false, false, false, false);

    var order = StaticPools.surplus(pool.withReplicas(1L), List.of(guarded, many, fewOld, fewYoung, launching));

    // 5 running for 1 replica: 4 go, of the 4 initialized ones; the one still launching is never cut short.
    assertEquals(List.of("c-few-old", "d-few-young", "b-many", "a-guarded"), order.stream().map(NodeClaimView::name).toList());
  }

  @Test
  void theDisruptionPlannerScalesDownForcefullyWithoutBudgetAndNeverConsolidatesAStaticNode() {
    // Budget 0 would hold any voluntary disruption; the pool's consolidateAfter 0s would make the empty node a candidate.
    NodePoolView pool = withBudgets(staticPool("fixed", 2, null), List.of(new DisruptionBudget("0", List.of(), null, null)))
        .withReplicas(2L);
    List<NodeClaimView> claims = List.of(
        withPods(claim("a", "fixed"), new PodsOnNode(3, 2, List.of())),
        withPods(claim("b", "fixed"), new PodsOnNode(1, 0, List.of())),
        withPods(claim("c", "fixed"), new PodsOnNode(3, 2, List.of())));

    DisruptionPlan plan = new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(pool), claims, List.of()));

    assertEquals(1, plan.commands().size(), plan.toString());
    DisruptionCommand down = plan.commands().getFirst();
    assertEquals("b", down.nodeClaim(), "the empty node goes");
    assertEquals(DisruptionMethod.DELETE, down.method());
    assertEquals(DisruptionPlanner.REASON_SCALED_DOWN, down.reason());
    assertTrue(down.forceful());
    assertTrue(plan.staticShort().isEmpty());

    // At its count, the empty node stays: static nodes are never consolidated.
    DisruptionPlan atCount = new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(pool), claims.subList(1, 3), List.of()));
    assertTrue(atCount.commands().isEmpty(), atCount.toString());
    assertTrue(atCount.decisions().stream().filter(d -> d.nodeClaim().equals("b")).findFirst().orElseThrow().reason()
        .contains("never consolidated"));
  }

  @Test
  void aShortPoolIsNamedForTheScaleUpAndOneHeldByItsNodeLimitGetsAReason() {
    NodePoolView pool = staticPool("fixed", 3, null);
    NodePoolView capped = staticPool("capped", 3, 1L);
    List<NodeClaimView> claims = List.of(claim("a", "fixed"), claim("b", "capped"),
        withFlags(claim("being-replaced", "fixed"), true, false, true, false, false));

    DisruptionPlan plan = new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(pool, capped), claims, List.of()));

    assertEquals(List.of("fixed"), plan.staticShort(), "a node being replaced counts: its replacement is on its way");
    assertTrue(plan.staticHeld().get("capped").startsWith("replicas 3 exceed limits.nodes 1"), plan.staticHeld().toString());
  }

  @Test
  void aDriftedStaticNodeIsReplacedEvenWhenEmptyButNotDuringAScaleDownNorPastTheNodeLimit() {
    NodePoolView pool = staticPool("fixed", 2, null);
    NodeClaimView drifted = withPods(withHash(claim("drifted", "fixed"), "old-hash"), new PodsOnNode(0, 0, List.of()));
    NodeClaimView other = claim("other", "fixed");

    DisruptionPlan plan = new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(pool), List.of(drifted, other), List.of()));
    assertEquals(List.of("drifted"), plan.commands().stream().map(DisruptionCommand::nodeClaim).toList());
    assertEquals(DisruptionMethod.REPLACE, plan.commands().getFirst().method(), "one for one, so the pool keeps its count");

    DisruptionPlan atLimit = new DisruptionPlanner().plan(new DisruptionSnapshot(NOW,
        List.of(staticPool("fixed", 2, 2L)), List.of(drifted, other), List.of()));
    assertTrue(atLimit.commands().isEmpty());
    assertTrue(atLimit.decisions().stream().anyMatch(d -> d.reason().contains("past limits.nodes 2")), atLimit.toString());

    NodePoolView scaledDown = staticPool("fixed", 1, null);
    NodeClaimView going = withFlags(claim("going", "fixed"), true, false, true, false, false);
    NodeClaimView driftedBusy = withPods(drifted, new PodsOnNode(3, 2, List.of()));
    NodeClaimView emptyOther = withPods(other, new PodsOnNode(1, 0, List.of()));
    DisruptionPlan whileScalingDown = new DisruptionPlanner().plan(new DisruptionSnapshot(NOW, List.of(scaledDown),
        List.of(driftedBusy, emptyOther, going), List.of()));
    assertEquals(List.of("other"), whileScalingDown.commands().stream().map(DisruptionCommand::nodeClaim).toList());
    assertTrue(whileScalingDown.decisions().stream().anyMatch(d -> d.reason().contains("waits for the scale-down")),
        whileScalingDown.toString());
  }

  @Test
  void pendingPodsNeverOpenAClaimInAStaticPool() {
    NodePoolView fixed = staticPool("fixed", 3, null);

    ProvisioningPlan plan = new ProvisioningPlanner().plan(snapshot(List.of(pod("web-0", 500, 512)), List.of(fixed), catalogue()),
        "batch-1", NAMER);

    assertTrue(plan.claims().isEmpty());
    assertEquals(1, plan.unschedulable().size());
  }

  @Test
  void aStaticNodeIsReplacedByATemplateClaimInItsZoneUnlessTheNodeLimitIsReached() {
    NodePoolView fixed = staticPool("fixed", 2, 3L);
    ReplacementSnapshot snapshot = new ReplacementSnapshot("old", "fixed-new", List.of(), fixed, catalogue(), List.of(),
        Resources.ZERO, KubeletSettings.DEFAULTS, "us-east-1b", 2);

    ReplacementPlan plan = new ProvisioningPlanner().planReplacement(snapshot);

    assertNotNull(plan.replacement(), plan.description());
    assertEquals("fixed-new", plan.replacement().name());
    assertEquals("us-east-1b", zoneOf(plan.replacement()));

    ReplacementPlan atLimit = new ProvisioningPlanner().planReplacement(new ReplacementSnapshot("old", "fixed-new", List.of(), fixed,
        catalogue(), List.of(), Resources.ZERO, KubeletSettings.DEFAULTS, "us-east-1b", 3));
    assertNull(atLimit.replacement());
    assertTrue(atLimit.description().contains("limits.nodes 3"), atLimit.description());
  }

  @Test
  void requirementOnTheZoneThatIsNotOfferedLeavesTheReplacementToAnotherZone() {
    NodePoolView fixed = staticPool("fixed", 2, null).withRequirement(new Requirement(WellKnown.ZONE_LABEL, "In",
        List.of("us-east-1a"), null));
    ReplacementPlan plan = new ProvisioningPlanner().planReplacement(new ReplacementSnapshot("old", "fixed-new", List.of(), fixed,
        catalogue(), List.of(), Resources.ZERO, KubeletSettings.DEFAULTS, "us-east-1c", 2));
    assertEquals("us-east-1a", zoneOf(plan.replacement()), "the NodePool no longer allows the old node's zone");
  }

  @Test
  void aReservationTheTemplateAllowsIsTakenByTheClaimInItsZoneAndNoOtherClaimMayLaunchReserved() {
    NodePoolView fixed = staticPool("fixed", 3, null);

    var launches = StaticPools.launches(List.of(new StaticPools.PoolState(fixed, List.of(), 0)),
        Map.of("fixed", ReservedCapacityPlanningTest.catalogueWithReservation(1)), List.of(), Map.of(), "b", NAMER);

    assertEquals(3, launches.claims().size());
    for (NodeClaimRequest claim : launches.claims()) {
      List<String> capacityTypes = claim.requirements().stream().filter(r -> WellKnown.CAPACITY_TYPE_LABEL.equals(r.key()))
          .findFirst().orElseThrow().values();
      if (zoneOf(claim).equals("us-east-1a")) {
        assertEquals(List.of(WellKnown.CAPACITY_RESERVED), capacityTypes, claim.toString());
        assertEquals(List.of("m5.xlarge"), claim.instanceTypes());
      } else {
        assertTrue(!capacityTypes.contains(WellKnown.CAPACITY_RESERVED), claim.toString());
      }
    }
  }
}
