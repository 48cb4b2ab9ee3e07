package dev.farrier.bench;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.InstanceTypeView;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a plan costs per hour: each claim at the cheapest offering it may launch as (any of its listed instance
 * types, in a zone and capacity type its requirements allow), which is what the launch asks EC2 for first.
 */
final class PlanPrice {
  private final Map<String, InstanceTypeView> byName;

  PlanPrice(List<InstanceTypeView> types) {
    byName = types.stream().collect(Collectors.toMap(InstanceTypeView::name, Function.identity()));
  }

  double perHour(ProvisioningPlan plan) {
    return plan.claims().stream().mapToDouble(this::perHour).sum();
  }

  double perHour(NodeClaimRequest claim) {
    Set<String> zones = allowed(claim, WellKnown.ZONE_LABEL);
    Set<String> capacityTypes = allowed(claim, WellKnown.CAPACITY_TYPE_LABEL);
    return claim.instanceTypes().stream().map(byName::get)
        .flatMap(t -> t.offerings().stream())
        .filter(o -> o.available() && (zones == null || zones.contains(o.zone()))
            && (capacityTypes == null || capacityTypes.contains(o.capacityType())))
        .mapToDouble(o -> o.pricePerHour()).min()
        .orElseThrow(() -> new IllegalStateException("claim " + claim.name() + " has no offering it may launch as"));
  }

  /** The values an {@code In} requirement on {@code key} allows, null when the claim does not restrict the key. */
  private static Set<String> allowed(NodeClaimRequest claim, String key) {
    return claim.requirements().stream().filter(r -> r.key().equals(key) && "In".equals(r.operator()))
        .map(Requirement::values).map(Set::copyOf).findFirst().orElse(null);
  }
}
