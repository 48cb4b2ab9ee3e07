package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.Requirement;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * NodeOverlays on a NodePool's instance types, as Karpenter's instance type store applies them: selection by
 * requirements (type labels, NodePool name and labels, zone and capacity type), weight order, absolute prices and
 * adjustments, extended resources, and conflicts between overlays of the same weight. Prices below are worked out by
 * hand from the fixtures' ($0.096 on-demand m5.large, spot at 40%: $0.0384).
 */
class NodeOverlaysTest {
  private static final NodeOverlays.Pool DEFAULT = new NodeOverlays.Pool("default", Map.of("team", "a"));
  private static final InstanceTypeView M5_LARGE = type("m5.large", "amd64", 2, 8, 29, 0.096);
  private static final InstanceTypeView M6G_LARGE = type("m6g.large", "arm64", 2, 8, 29, 0.077);

  private static NodeOverlayView overlay(String name, int weight, String price, Requirement... requirements) {
    return new NodeOverlayView(name, weight, List.of(requirements), price, Map.of());
  }

  private static NodeOverlayView capacity(String name, int weight, Map<String, Long> capacity, Requirement... requirements) {
    return new NodeOverlayView(name, weight, List.of(requirements), null, capacity);
  }

  private static NodeOverlays resolve(List<NodeOverlayView> overlays, List<InstanceTypeView> types) {
    return NodeOverlays.resolve(overlays, Map.of(DEFAULT, types));
  }

  private static double price(List<InstanceTypeView> types, String type, String capacityType, String zone) {
    return types.stream().filter(t -> t.name().equals(type)).flatMap(t -> t.offerings().stream())
        .filter(o -> o.capacityType().equals(capacityType) && o.zone().equals(zone)).findFirst().orElseThrow().pricePerHour();
  }

  static Stream<Arguments> prices() {
    String od = WellKnown.CAPACITY_ON_DEMAND;
    String spot = WellKnown.CAPACITY_SPOT;
    Requirement m5 = req(WellKnown.INSTANCE_TYPE_LABEL, "In", "m5.large");
    return Stream.of(
        // name, overlays, on-demand m5.large in us-east-1a, its spot price there, spot m6g.large in us-east-1b
        Arguments.of("no overlay", List.of(), 0.096, 0.0384, 0.0308),
        Arguments.of("absolute price on one type", List.of(overlay("o", 1, "0.05", m5)), 0.05, 0.05, 0.0308),
        Arguments.of("+10% on every type", List.of(overlay("o", 1, "+10%")), 0.1056, 0.04224, 0.03388),
        Arguments.of("-50% on spot only", List.of(overlay("o", 1, "-50%", req(WellKnown.CAPACITY_TYPE_LABEL, "In", spot))),
            0.096, 0.0192, 0.0154),
        Arguments.of("-100% makes it free", List.of(overlay("o", 1, "-100%", m5)), 0.0, 0.0, 0.0308),
        Arguments.of("+0.004 added", List.of(overlay("o", 1, "+0.004", m5)), 0.1, 0.0424, 0.0308),
        Arguments.of("-1 never below zero", List.of(overlay("o", 1, "-1", m5)), 0.0, 0.0, 0.0308),
        Arguments.of("one zone only", List.of(overlay("o", 1, "1", req(WellKnown.ZONE_LABEL, "In", "us-east-1b"))), 0.096, 0.0384, 1.0),
        Arguments.of("the higher weight wins", List.of(overlay("low", 1, "0.01", m5), overlay("high", 50, "+50%", m5)),
            0.144, 0.0576, 0.0308),
        Arguments.of("a lower weight still prices what the higher leaves",
            List.of(overlay("spot", 50, "0.02", req(WellKnown.CAPACITY_TYPE_LABEL, "In", spot)), overlay("all", 1, "+100%")),
            0.192, 0.02, 0.02),
        Arguments.of("by NodePool name", List.of(overlay("o", 1, "2", req(WellKnown.NODEPOOL_LABEL, "In", "default"))), 2.0, 2.0, 2.0),
        Arguments.of("another NodePool's", List.of(overlay("o", 1, "2", req(WellKnown.NODEPOOL_LABEL, "In", "other"))),
            0.096, 0.0384, 0.0308),
        Arguments.of("by a NodePool template label", List.of(overlay("o", 1, "3", req("team", "In", "a"))), 3.0, 3.0, 3.0),
        Arguments.of("a label nothing defines meets NotIn only", List.of(overlay("in", 2, "4", req("tier", "In", "x")),
            overlay("notin", 1, "5", req("tier", "NotIn", "x"))), 5.0, 5.0, 5.0),
        Arguments.of("Gte on instance cpu", List.of(overlay("o", 1, "6", req(WellKnown.INSTANCE_CPU_LABEL, "Gte", "2"))), 6.0, 6.0, 6.0),
        Arguments.of("on-demand by arch", List.of(overlay("o", 1, "+0.1",
            req(WellKnown.ARCH_LABEL, "In", "arm64"), req(WellKnown.CAPACITY_TYPE_LABEL, "In", od))), 0.096, 0.0384, 0.0308));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("prices")
  void pricesAreSetAndAdjustedAsKarpenterDoes(String name, List<NodeOverlayView> overlays, double onDemand, double spot,
      double otherSpot) {
    List<InstanceTypeView> types = List.of(M5_LARGE, M6G_LARGE);
    var applied = resolve(overlays, types).apply(DEFAULT, types);
    assertEquals(onDemand, price(applied, "m5.large", WellKnown.CAPACITY_ON_DEMAND, "us-east-1a"), 1e-9);
    assertEquals(spot, price(applied, "m5.large", WellKnown.CAPACITY_SPOT, "us-east-1a"), 1e-9);
    assertEquals(otherSpot, price(applied, "m6g.large", WellKnown.CAPACITY_SPOT, "us-east-1b"), 1e-9);
  }

  @Test
  void typesNoOverlaySelectsAreTheSameObjects() {
    List<InstanceTypeView> types = List.of(M5_LARGE, M6G_LARGE);
    var applied = resolve(List.of(overlay("o", 1, "1", req(WellKnown.INSTANCE_TYPE_LABEL, "In", "m5.large"))), types).apply(DEFAULT, types);
    assertSame(M6G_LARGE, applied.get(1));
    assertSame(types, NodeOverlays.NONE.apply(DEFAULT, types));
  }

  @Test
  void capacityAddsExtendedResourcesMergedByWeightPerResource() {
    List<InstanceTypeView> types = List.of(M5_LARGE, withExtended(M6G_LARGE, "example.com/fpga", 2));
    var overlays = resolve(List.of(
        capacity("high", 10, Map.of("example.com/fpga", 8L)),
        capacity("low", 1, Map.of("example.com/fpga", 1L, "example.com/license", 4L)),
        capacity("arm", 5, Map.of("example.com/dongle", 1L), req(WellKnown.ARCH_LABEL, "In", "arm64"))), types);
    assertEquals(Map.of(), overlays.conflicts());
    var applied = overlays.apply(DEFAULT, types);
    assertEquals(Map.of("example.com/fpga", 8L, "example.com/license", 4L), applied.get(0).capacity().extended());
    assertEquals(Map.of("example.com/fpga", 8L, "example.com/license", 4L, "example.com/dongle", 1L), applied.get(1).capacity().extended(),
        "the type's own 2 fpga replaced by the higher weight's 8; the rest added");
    assertEquals(M5_LARGE.capacity().milliCpu(), applied.get(0).capacity().milliCpu());
  }

  @Test
  void twoOverlaysOfEqualWeightPricingTheSameOfferingConflictAndTheLaterInTheOrderIsLeftOut() {
    List<InstanceTypeView> types = List.of(M5_LARGE, M6G_LARGE);
    // Of equal weight the name later in the alphabet comes first: "b" stands, "a" is left out everywhere.
    var overlays = resolve(List.of(
        overlay("a", 5, "1", req(WellKnown.INSTANCE_TYPE_LABEL, "In", "m5.large", "m6g.large")),
        overlay("b", 5, "2", req(WellKnown.INSTANCE_TYPE_LABEL, "In", "m5.large"))), types);
    assertEquals(List.of("b"), overlays.applied().stream().map(NodeOverlayView::name).toList());
    assertTrue(overlays.conflicts().get("a").startsWith("conflicts with NodeOverlay b of the same weight (5) on the price of m5.large"),
        overlays.conflicts().toString());
    var applied = overlays.apply(DEFAULT, types);
    assertEquals(2.0, price(applied, "m5.large", WellKnown.CAPACITY_ON_DEMAND, "us-east-1a"), 1e-9);
    assertEquals(0.077, price(applied, "m6g.large", WellKnown.CAPACITY_ON_DEMAND, "us-east-1a"), 1e-9,
        "a conflicting overlay is not half applied: not on the type it alone selects either");
  }

  @Test
  void equalWeightsOnDisjointOfferingsOrDifferentWeightsOrDifferentResourcesDoNotConflict() {
    List<InstanceTypeView> types = List.of(M5_LARGE, M6G_LARGE);
    var overlays = resolve(List.of(
        overlay("od", 5, "1", req(WellKnown.CAPACITY_TYPE_LABEL, "In", WellKnown.CAPACITY_ON_DEMAND)),
        overlay("spot", 5, "2", req(WellKnown.CAPACITY_TYPE_LABEL, "In", WellKnown.CAPACITY_SPOT)),
        overlay("over", 6, "3"),
        capacity("x", 5, Map.of("example.com/x", 1L)),
        capacity("y", 5, Map.of("example.com/y", 1L))), types);
    assertEquals(Map.of(), overlays.conflicts());
    assertEquals(List.of("over", "y", "x", "spot", "od"), overlays.applied().stream().map(NodeOverlayView::name).toList());
  }

  @Test
  void equalWeightsSettingTheSameResourceConflict() {
    var overlays = resolve(List.of(capacity("a", 3, Map.of("example.com/x", 1L)), capacity("b", 3, Map.of("example.com/x", 2L))),
        List.of(M5_LARGE));
    assertEquals(List.of("a"), List.copyOf(overlays.conflicts().keySet()));
    assertTrue(overlays.conflicts().get("a").contains("capacity example.com/x of m5.large"), overlays.conflicts().get("a"));
  }

  @Test
  void aConflictInOneNodePoolLeavesTheOverlayOutOfEveryNodePool() {
    var other = new NodeOverlays.Pool("other", Map.of());
    Map<NodeOverlays.Pool, List<InstanceTypeView>> byPool = new LinkedHashMap<>();
    byPool.put(DEFAULT, List.of(M5_LARGE));
    byPool.put(other, List.of(M5_LARGE));
    var overlays = NodeOverlays.resolve(List.of(
        overlay("a", 5, "1"),
        overlay("b", 5, "2", req(WellKnown.NODEPOOL_LABEL, "In", "default"))), byPool);
    assertEquals(List.of("a"), List.copyOf(overlays.conflicts().keySet()));
    assertEquals(0.096, price(overlays.apply(other, List.of(M5_LARGE)), "m5.large", WellKnown.CAPACITY_ON_DEMAND, "us-east-1a"), 1e-9);
  }

  @Test
  void provisioningChoosesTheTypeAnOverlayMadeCheapest() {
    var types = catalogue();
    var pool = pool("default");
    var overlays = NodeOverlays.resolve(List.of(overlay("cheap-r6i", 1, "0.001", req(WellKnown.INSTANCE_TYPE_LABEL, "In", "r6i.xlarge"))),
        Map.of(new NodeOverlays.Pool("default", Map.of()), types));
    ProvisioningPlan plain = new ProvisioningPlanner().plan(snapshot(List.of(pod("p", 500, 512)), List.of(pool), types), "b",
        ClaimNamer.standard());
    ProvisioningPlan overlaid = new ProvisioningPlanner().plan(snapshot(List.of(pod("p", 500, 512)), List.of(pool),
        overlays.apply(pool, types)), "b", ClaimNamer.standard());
    assertEquals("m6g.large", plain.claims().getFirst().instanceTypes().getFirst());
    assertEquals("r6i.xlarge", overlaid.claims().getFirst().instanceTypes().getFirst());
  }

  @Test
  void provisioningPlansAnExtendedResourceOnlyOnTypesAnOverlayGaveIt() {
    var types = catalogue();
    var pool = pool("default");
    var overlays = NodeOverlays.resolve(List.of(capacity("fpga", 1, Map.of("example.com/fpga", 1L),
        req(WellKnown.INSTANCE_FAMILY_LABEL, "In", "c7i"))), Map.of(new NodeOverlays.Pool("default", Map.of()), types));
    var needsFpga = withExtendedRequest(pod("p", 500, 512), "example.com/fpga", 1);
    ProvisioningPlan plain = new ProvisioningPlanner().plan(snapshot(List.of(needsFpga), List.of(pool), types), "b", ClaimNamer.standard());
    ProvisioningPlan overlaid = new ProvisioningPlanner().plan(snapshot(List.of(needsFpga), List.of(pool), overlays.apply(pool, types)),
        "b", ClaimNamer.standard());
    assertTrue(plain.claims().isEmpty(), plain.toString());
    assertEquals(List.of("c7i.xlarge"), overlaid.claims().getFirst().instanceTypes());
  }

  private static PodSpecView withExtendedRequest(PodSpecView p, String resource, long amount) {
    var r = p.requests();
    return new PodSpecView(p.pod(), new dev.farrier.model.Resources(r.milliCpu(), r.memoryBytes(), r.ephemeralStorageBytes(), r.pods(),
        Map.of(resource, amount)), p.nodeSelector(), p.requiredAffinityTerms(), p.tolerations(), p.ownerKind(), p.doNotDisrupt());
  }

  @Test
  void orderIsHighestWeightThenNameLaterInTheAlphabet() {
    List<NodeOverlayView> given = new ArrayList<>(List.of(overlay("a", 1, null), overlay("c", 1, null), overlay("b", 9, null)));
    assertEquals(List.of("b", "c", "a"), resolve(given, List.of(M5_LARGE)).applied().stream().map(NodeOverlayView::name).toList());
  }
}
