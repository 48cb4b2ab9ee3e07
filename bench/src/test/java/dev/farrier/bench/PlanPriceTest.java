package dev.farrier.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.OfferingView;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlanPriceTest {
  private final InstanceTypeView small = type("small", new OfferingView("a", "spot", 0.02, true),
      new OfferingView("b", "spot", 0.01, true), new OfferingView("a", "on-demand", 0.05, true));
  private final InstanceTypeView large = type("large", new OfferingView("a", "spot", 0.03, false),
      new OfferingView("a", "on-demand", 0.04, true));
  private final PlanPrice price = new PlanPrice(List.of(small, large));

  @Test
  void claimCostsItsCheapestAvailableOfferingAcrossListedTypes() {
    assertEquals(0.01, price.perHour(claim(List.of("large", "small"), List.of())), 1e-9);
  }

  @Test
  void zoneAndCapacityTypeRequirementsNarrowTheOfferings() {
    var inZoneA = claim(List.of("small", "large"), List.of(Requirement.in(WellKnown.ZONE_LABEL, List.of("a"))));
    assertEquals(0.02, price.perHour(inZoneA), 1e-9);
    var onDemand = claim(List.of("small", "large"), List.of(Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of("on-demand"))));
    assertEquals(0.04, price.perHour(onDemand), 1e-9);
  }

  @Test
  void planCostsTheSumOfItsClaims() {
    var plan = new ProvisioningPlan(List.of(claim(List.of("small"), List.of()), claim(List.of("large"), List.of())), List.of());
    assertEquals(0.05, price.perHour(plan), 1e-9);
  }

  private static NodeClaimRequest claim(List<String> types, List<Requirement> requirements) {
    return new NodeClaimRequest("c", "default", "default", types, requirements, Resources.ZERO, Map.of(), List.of(),
        List.of(), "h", null, null, List.of());
  }

  private static InstanceTypeView type(String name, OfferingView... offerings) {
    return new InstanceTypeView(name, "amd64", Map.of(), Resources.of(2_000, 4L << 30, 29), List.of(offerings));
  }
}
