package dev.farrier.planner;

import static dev.farrier.planner.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.Requirement;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Capacity reservations as the planner spends them: preferred, never overbooked in one plan, then on-demand. */
class ReservedCapacityPlanningTest {
  static final String RESERVATION = "cr-0123456789abcdef0";

  /** The fixtures' catalogue, m5.xlarge also reserved in us-east-1a with room for {@code room} more instances. */
  static List<InstanceTypeView> catalogueWithReservation(int room) {
    List<InstanceTypeView> types = new ArrayList<>();
    for (InstanceTypeView t : catalogue()) {
      if (!t.name().equals("m5.xlarge")) {
        types.add(t);
        continue;
      }
      List<OfferingView> offerings = new ArrayList<>(t.offerings());
      offerings.add(new OfferingView("us-east-1a", WellKnown.CAPACITY_RESERVED, 0.192 / 10_000_000, room > 0,
          new OfferingView.Reservation(RESERVATION, "default", false, room)));
      types.add(new InstanceTypeView(t.name(), t.arch(), t.labels(), t.capacity(), offerings));
    }
    return types;
  }

  private static ProvisioningPlan plan(int pods, int room, Requirement capacityTypes) {
    List<PodSpecView> pending = new ArrayList<>();
    for (int i = 0; i < pods; i++) {
      pending.add(pod("big-" + i, 3000, 1024));
    }
    NodePoolView pool = pool("default", 0, capacityTypes == null ? List.of() : List.of(capacityTypes), List.of());
    return new ProvisioningPlanner().plan(snapshot(pending, List.of(pool), catalogueWithReservation(room)), "batch-1",
        ClaimNamer.standard());
  }

  private static List<String> in(NodeClaimRequest claim, String key) {
    return claim.requirements().stream().filter(r -> r.key().equals(key) && r.operator().equals("In")).findFirst()
        .map(Requirement::values).orElse(List.of());
  }

  private static long reserved(ProvisioningPlan plan) {
    return plan.claims().stream().filter(c -> in(c, WellKnown.CAPACITY_TYPE_LABEL).equals(List.of(WellKnown.CAPACITY_RESERVED))).count();
  }

  @Test
  void aReservationIsFilledFirstAndNoMoreClaimsGoIntoItThanItHasRoomForTheRestGoOnDemand() {
    ProvisioningPlan plan = plan(5, 2, req(WellKnown.CAPACITY_TYPE_LABEL, "In", WellKnown.CAPACITY_ON_DEMAND, WellKnown.CAPACITY_RESERVED));

    assertEquals(5, plan.claims().size(), "one 4-vCPU node per 3-vCPU pod");
    assertEquals(2, reserved(plan), "the reservation has room for two");
    for (NodeClaimRequest claim : plan.claims()) {
      if (in(claim, WellKnown.CAPACITY_TYPE_LABEL).contains(WellKnown.CAPACITY_RESERVED)) {
        assertEquals(List.of("m5.xlarge"), claim.instanceTypes());
        assertEquals(List.of("us-east-1a"), in(claim, WellKnown.ZONE_LABEL));
        assertEquals(List.of(RESERVATION), in(claim, WellKnown.CAPACITY_RESERVATION_ID_LABEL));
        assertEquals(List.of("default"), in(claim, WellKnown.CAPACITY_RESERVATION_TYPE_LABEL));
        assertEquals(List.of("false"), in(claim, WellKnown.CAPACITY_RESERVATION_INTERRUPTIBLE_LABEL));
      } else {
        assertEquals(List.of(WellKnown.CAPACITY_ON_DEMAND), in(claim, WellKnown.CAPACITY_TYPE_LABEL), claim.name());
        assertTrue(in(claim, WellKnown.CAPACITY_RESERVATION_ID_LABEL).isEmpty(), claim.name());
        assertEquals("m5.xlarge", claim.instanceTypes().getFirst(), "the spill-over keeps the type the pods were sized for");
      }
    }
  }

  @Test
  void anExhaustedReservationIsNotPlannedInto() {
    ProvisioningPlan plan = plan(2, 0, req(WellKnown.CAPACITY_TYPE_LABEL, "In", WellKnown.CAPACITY_ON_DEMAND, WellKnown.CAPACITY_RESERVED));

    assertEquals(2, plan.claims().size());
    assertEquals(0, reserved(plan));
  }

  @Test
  void aNodePoolWhoseCapacityTypesLeaveOutReservedNeverUsesAReservation() {
    ProvisioningPlan plan = plan(3, 5, req(WellKnown.CAPACITY_TYPE_LABEL, "In", WellKnown.CAPACITY_ON_DEMAND));

    assertEquals(0, reserved(plan));
    plan.claims().forEach(c -> assertEquals(List.of(WellKnown.CAPACITY_ON_DEMAND), in(c, WellKnown.CAPACITY_TYPE_LABEL)));
  }

  @Test
  void aNodePoolWithoutACapacityTypeRequirementMayUseAReservationAsInKarpenter() {
    ProvisioningPlan plan = plan(3, 2, null);

    assertEquals(2, reserved(plan), "reserved need not be listed: an absent requirement allows every capacity type");
  }
}
