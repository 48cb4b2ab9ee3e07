package dev.farrier.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.Requirement;
import dev.farrier.model.Taint;
import dev.farrier.model.Toleration;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CapacitySplitTest {
  private static final CapacitySplit.Minimum THIRTY_PERCENT = CapacitySplit.Minimum.parse("30%");

  private static CapacitySplit.Pod gated(String name, long created) {
    return new CapacitySplit.Pod(name, created, true, false, null, false, false);
  }

  private static CapacitySplit.Pod on(String name, long created, String capacityType) {
    return new CapacitySplit.Pod(name, created, false, false, capacityType, false, false);
  }

  @Test
  void aPercentageIsRoundedUpAndACountIsTakenAsWritten() {
    assertEquals(3, THIRTY_PERCENT.of(10));
    assertEquals(4, THIRTY_PERCENT.of(11));
    assertEquals(1, THIRTY_PERCENT.of(1));
    assertEquals(0, THIRTY_PERCENT.of(0));
    assertEquals(6, THIRTY_PERCENT.of(20));
    assertEquals(2, CapacitySplit.Minimum.parse("2").of(10));
    assertEquals(10, CapacitySplit.Minimum.parse("100%").of(10));
    assertEquals(0, CapacitySplit.Minimum.parse("0%").of(10));
  }

  @Test
  void anUnparsableValueIsRefusedNamingTheAnnotation() {
    for (String bad : List.of("thirty", "30 %", "-1", "101%", "1.5", "", "%")) {
      var e = assertThrows(IllegalArgumentException.class, () -> CapacitySplit.Minimum.parse(bad), bad);
      assertTrue(e.getMessage().contains(CapacitySplit.ANNOTATION), e.getMessage());
    }
  }

  @Test
  void tenNewGatedPodsAtThirtyPercentPinTheOldestThree() {
    List<CapacitySplit.Pod> pods = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      pods.add(gated("p" + i, 100 - i)); // p9 is the oldest
    }
    var split = CapacitySplit.decide(THIRTY_PERCENT, 10, pods, true);
    assertEquals(List.of("p9", "p8", "p7"), split.pin());
    assertEquals(7, split.release().size());
    assertEquals(3, split.onDemand());
    assertFalse(split.belowMinimum());
    assertNull(split.evict());
  }

  @Test
  void podsAlreadyOnOnDemandOrPinnedButPendingCountSoAScaleOutPinsOnlyWhatIsMissing() {
    List<CapacitySplit.Pod> pods = new ArrayList<>();
    pods.add(on("od1", 1, WellKnown.CAPACITY_ON_DEMAND));
    pods.add(on("od2", 2, WellKnown.CAPACITY_ON_DEMAND));
    pods.add(new CapacitySplit.Pod("pinned-pending", 3, false, true, null, false, false));
    for (int i = 0; i < 7; i++) {
      pods.add(on("spot" + i, 10 + i, WellKnown.CAPACITY_SPOT));
    }
    for (int i = 0; i < 10; i++) {
      pods.add(gated("new" + i, 100 + i));
    }
    var split = CapacitySplit.decide(THIRTY_PERCENT, 20, pods, true);
    assertEquals(6, split.required());
    assertEquals(List.of("new0", "new1", "new2"), split.pin());
    assertEquals(7, split.release().size());
  }

  @Test
  void aPodReplacingAnInterruptedSpotPodIsReleasedWhileTheShareHolds() {
    List<CapacitySplit.Pod> pods = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      pods.add(on("od" + i, i, WellKnown.CAPACITY_ON_DEMAND));
    }
    for (int i = 0; i < 6; i++) {
      pods.add(on("spot" + i, 10 + i, WellKnown.CAPACITY_SPOT));
    }
    pods.add(gated("replacement", 50));
    var split = CapacitySplit.decide(THIRTY_PERCENT, 10, pods, true);
    assertEquals(List.of(), split.pin());
    assertEquals(List.of("replacement"), split.release());
  }

  @Test
  void terminatingPodsCountForNothingAndAGatedPodPinnedByItsTemplateIsReleasedAndCounted() {
    var split = CapacitySplit.decide(CapacitySplit.Minimum.parse("2"), 3, List.of(
        new CapacitySplit.Pod("leaving", 1, false, false, WellKnown.CAPACITY_ON_DEMAND, true, false),
        new CapacitySplit.Pod("self-pinned", 2, true, true, null, false, false),
        gated("free", 3)), true);
    assertEquals(List.of("free"), split.pin());
    assertEquals(List.of("self-pinned"), split.release());
    assertEquals(2, split.onDemand());
  }

  @Test
  void withoutOnDemandOnOfferEveryGatedPodIsReleasedAndTheWorkloadIsShort() {
    var split = CapacitySplit.decide(THIRTY_PERCENT, 2, List.of(gated("a", 1), gated("b", 2)), false);
    assertEquals(List.of(), split.pin());
    assertEquals(List.of("a", "b"), split.release());
    assertTrue(split.belowMinimum());
    assertNull(split.evict());
    assertTrue(split.detail().contains("no NodePool offers on-demand"), split.detail());
  }

  @Test
  void afterAScaleDownThatTookTheOnDemandPodsTheYoungestUnpinnedSpotPodIsEvictedOneAtATime() {
    List<CapacitySplit.Pod> pods = new ArrayList<>();
    pods.add(on("od", 1, WellKnown.CAPACITY_ON_DEMAND));
    pods.add(on("spot-old", 2, WellKnown.CAPACITY_SPOT));
    pods.add(new CapacitySplit.Pod("spot-young-dnd", 9, false, false, WellKnown.CAPACITY_SPOT, false, true));
    pods.add(on("spot-young", 8, WellKnown.CAPACITY_SPOT));
    pods.add(on("spot-mid", 5, WellKnown.CAPACITY_SPOT));
    var split = CapacitySplit.decide(CapacitySplit.Minimum.parse("50%"), 5, pods, true);
    assertEquals(3, split.required());
    assertEquals("spot-young", split.evict(), "youngest, never do-not-disrupt");
    assertTrue(split.belowMinimum());
  }

  @Test
  void rebalancingWaitsWhileAPodIsPendingTerminatingOrMissing() {
    var base = List.of(on("od", 1, WellKnown.CAPACITY_ON_DEMAND), on("spot", 2, WellKnown.CAPACITY_SPOT));
    var min = CapacitySplit.Minimum.parse("2");
    var pending = new ArrayList<>(base);
    pending.add(new CapacitySplit.Pod("pending", 3, false, false, null, false, false));
    assertNull(CapacitySplit.decide(min, 3, pending, true).evict());
    var terminating = new ArrayList<>(base);
    terminating.add(new CapacitySplit.Pod("leaving", 3, false, false, WellKnown.CAPACITY_SPOT, true, false));
    assertNull(CapacitySplit.decide(min, 2, terminating, true).evict());
    assertNull(CapacitySplit.decide(min, 3, base, true).evict(), "fewer pods than replicas");
    assertEquals("spot", CapacitySplit.decide(min, 2, base, true).evict());
  }

  @Test
  void aPinnedPodIsNeverEvictedToRebalance() {
    var split = CapacitySplit.decide(CapacitySplit.Minimum.parse("2"), 2, List.of(
        on("od", 1, WellKnown.CAPACITY_ON_DEMAND),
        new CapacitySplit.Pod("pinned-on-spot?", 2, false, true, WellKnown.CAPACITY_SPOT, false, false)), true);
    assertNull(split.evict());
  }

  @Test
  void onDemandIsOfferedByANodePoolThatAllowsItOrSaysNothingAndMatchesThePodsSelector() {
    var both = new CapacitySplit.Pool("both", Map.of("intent", "apps"),
        List.of(Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of("spot", "on-demand"))), List.of());
    var spotOnly = new CapacitySplit.Pool("spot", Map.of("intent", "apps"),
        List.of(Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of("spot"))), List.of());
    var silent = new CapacitySplit.Pool("silent", Map.of("intent", "batch"), List.of(), List.of());
    assertTrue(CapacitySplit.onDemandOffered(Map.of("intent", "apps"), List.of(), List.of(both)));
    assertFalse(CapacitySplit.onDemandOffered(Map.of("intent", "apps"), List.of(), List.of(spotOnly)));
    assertFalse(CapacitySplit.onDemandOffered(Map.of("intent", "apps"), List.of(), List.of(spotOnly, silent)), "silent is on-demand but for intent=batch");
    assertTrue(CapacitySplit.onDemandOffered(Map.of("intent", "batch"), List.of(), List.of(spotOnly, silent)), "no capacity-type requirement: on-demand");
    assertFalse(CapacitySplit.onDemandOffered(Map.of(WellKnown.CAPACITY_TYPE_LABEL, "spot"), List.of(), List.of(both)), "the pod itself asks for spot");
  }

  @Test
  void onlyAPodOnASpotNodeIsEvictedNeverOneOnReservedCapacityOrANodeWithoutTheLabel() {
    var min = CapacitySplit.Minimum.parse("2");
    var offSpot = List.of(on("od", 1, WellKnown.CAPACITY_ON_DEMAND), on("reserved", 2, WellKnown.CAPACITY_RESERVED),
        on("managed-node-group", 3, ""));
    var split = CapacitySplit.decide(min, 3, offSpot, true);
    assertTrue(split.belowMinimum());
    assertNull(split.evict(), split.detail());
    var withSpot = new ArrayList<>(offSpot);
    withSpot.add(on("spot", 0, WellKnown.CAPACITY_SPOT));
    assertEquals("spot", CapacitySplit.decide(min, 4, withSpot, true).evict(), "the oldest pod, but the only one on spot");
  }

  @Test
  void aPodIsPinnedOnlyToANodePoolWhoseTaintsItTolerates() {
    var taint = new Taint("dedicated", "gpu", "NoSchedule");
    var tainted = new CapacitySplit.Pool("tainted", Map.of(), List.of(), List.of(taint));
    assertFalse(CapacitySplit.onDemandOffered(Map.of(), List.of(), List.of(tainted)), "no toleration: the pin would leave it pending");
    assertTrue(CapacitySplit.onDemandOffered(Map.of(), List.of(new Toleration("dedicated", "Equal", "gpu", "NoSchedule")), List.of(tainted)));
    var soft = new CapacitySplit.Pool("soft", Map.of(), List.of(), List.of(new Taint("dedicated", "gpu", "PreferNoSchedule")));
    assertTrue(CapacitySplit.onDemandOffered(Map.of(), List.of(), List.of(soft)), "PreferNoSchedule never keeps a pod off");
  }

  @Test
  void theCountIsTheDetailsFirstPartAndSaysNothingOfTheDecision() {
    var split = CapacitySplit.decide(THIRTY_PERCENT, 10, List.of(on("spot", 1, WellKnown.CAPACITY_SPOT)), true);
    assertEquals("on-demand 0 of 3 required (30% of 10 replicas)", split.count());
    assertTrue(split.detail().startsWith(split.count() + "; "), split.detail());
  }
}
