package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.ReplacementPlan;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The price ceiling of a consolidation's replacement, and the spot-to-spot narrowing of a spot node's replacement. */
class CheaperOfferingsTest {
  /** 20 types, t0 the cheapest; t0-t9 of family a, t10-t19 of family b. */
  private static final List<InstanceTypeView> TYPES = IntStream.range(0, 20)
      .mapToObj(i -> Fixtures.withLabel(type("t" + i, "amd64", 2, 8, 29, 0.1 + 0.01 * i), WellKnown.INSTANCE_FAMILY_LABEL, i < 10 ? "a" : "b"))
      .toList();

  private static ReplacementPlan plan(int types, Requirement... requirements) {
    List<String> names = new ArrayList<>(TYPES.stream().limit(types).map(InstanceTypeView::name).toList());
    var claim = new NodeClaimRequest("r", "default", "default", names, List.of(requirements), Resources.ZERO, Map.of(), List.of(),
        List.of(), "hash", null, null, List.of(), null);
    return new ReplacementPlan(claim, 1, "replace");
  }

  @Test
  void spotOnlyKeepsOnlyTheSpotOfferingsUnderTheCeiling() {
    // On-demand t0-t4 ($0.10-$0.14) and every spot offering (0.4 x) are under $0.15/h.
    var spot = CheaperOfferings.below(TYPES, 0.15, true);
    assertEquals(20, spot.size());
    assertTrue(spot.stream().flatMap(t -> t.offerings().stream()).allMatch(o -> o.capacityType().equals(WellKnown.CAPACITY_SPOT)));
    var both = CheaperOfferings.below(TYPES, 0.15);
    assertEquals(20, both.size());
    assertEquals(5, both.stream().filter(t -> t.offerings().stream().anyMatch(o -> o.capacityType().equals(WellKnown.CAPACITY_ON_DEMAND)))
        .count(), "without spotOnly the on-demand offerings under the ceiling stay");
  }

  @Test
  void aSpotReplacementLaunchesWithTheFifteenCheapestTypes() {
    var narrowed = CheaperOfferings.spotToSpot(plan(20), TYPES);
    assertEquals(IntStream.range(0, 15).mapToObj(i -> "t" + i).toList(), narrowed.replacement().instanceTypes());
    assertTrue(narrowed.description().endsWith("spot-to-spot: the 15 cheapest of 20 spot instance types"), narrowed.description());
  }

  @Test
  void fewerThanFifteenTypesIsNoSpotReplacement() {
    var none = CheaperOfferings.spotToSpot(plan(14), TYPES);
    assertNull(none.replacement());
    assertEquals("spot-to-spot consolidation needs 15 cheaper spot instance types that hold its pods, found 14", none.description());
    assertEquals(15, CheaperOfferings.spotToSpot(plan(15), TYPES).replacement().instanceTypes().size());
  }

  @Test
  void noReplacementStaysNone() {
    var none = new ReplacementPlan(null, 2, "no replacement can hold them");
    assertEquals(none, CheaperOfferings.spotToSpot(none, TYPES));
  }

  @Test
  void minValuesKeepMoreTypesThanFifteenWhenTheyNeedThem() {
    // 16 distinct types needed: one more than the 15.
    var types = CheaperOfferings.spotToSpot(plan(20, new Requirement(WellKnown.INSTANCE_TYPE_LABEL, "Exists", List.of(), 16)), TYPES);
    assertEquals(16, types.replacement().instanceTypes().size());
    // The 15 cheapest span both families already (t0-t9 a, t10-t14 b): minValues 2 adds nothing.
    var families = CheaperOfferings.spotToSpot(plan(20, new Requirement(WellKnown.INSTANCE_FAMILY_LABEL, "Exists", List.of(), 2)), TYPES);
    assertEquals(15, families.replacement().instanceTypes().size());
  }
}
