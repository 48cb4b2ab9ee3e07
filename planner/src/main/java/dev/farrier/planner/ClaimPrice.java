package dev.farrier.planner;

import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.WellKnown;
import java.util.List;

/** What a planned claim is expected to cost: the cheapest offering its requirements allow of its first-ranked type. */
public final class ClaimPrice {
  private ClaimPrice() {}

  /**
   * Price per hour of a running claim: its instance type's offering in its zone and capacity type among its pool's
   * {@code types}; NaN when unknown.
   */
  static double running(NodeClaimView claim, List<InstanceTypeView> types) {
    for (InstanceTypeView t : types) {
      if (t.name().equals(claim.instanceType())) {
        for (OfferingView o : t.offerings()) {
          if (o.zone().equals(claim.zone()) && o.capacityType().equals(claim.capacityType())) {
            return o.pricePerHour();
          }
        }
      }
    }
    return Double.NaN;
  }

  /** Price per hour of {@code claim} given its pool's instance types; NaN when its first type is not among them. */
  public static double perHour(NodeClaimRequest claim, List<InstanceTypeView> types) {
    String first = claim.instanceTypes().getFirst();
    LabelConstraint zone = LabelConstraint.ANY;
    LabelConstraint capacityType = LabelConstraint.ANY;
    for (Requirement r : claim.requirements()) {
      if (r.key().equals(WellKnown.ZONE_LABEL)) {
        zone = zone.and(LabelConstraint.of(r));
      } else if (r.key().equals(WellKnown.CAPACITY_TYPE_LABEL)) {
        capacityType = capacityType.and(LabelConstraint.of(r));
      }
    }
    double best = Double.NaN;
    for (InstanceTypeView t : types) {
      if (!t.name().equals(first)) {
        continue;
      }
      for (OfferingView o : t.offerings()) {
        if (o.available() && zone.allows(o.zone()) && capacityType.allows(o.capacityType())
            && (Double.isNaN(best) || o.pricePerHour() < best)) {
          best = o.pricePerHour();
        }
      }
    }
    return best;
  }
}
