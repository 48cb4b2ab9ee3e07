package dev.farrier.planner;

import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Capacity reservations as one plan spends them (Karpenter's {@code ReservationManager}): each reservation takes at
 * most the instances it has room for. The scheduler ranks a reservation's offering first (it is priced at a sliver of
 * on-demand), so claims open for its instance type; {@link #assign} then, claim by claim in the plan's order, pins a
 * claim that may use {@code reserved} to a reservation with room left (capacity type {@code reserved}, the
 * reservation's zone, id, type and interruptible labels, its instance type only: Karpenter's {@code FinalizeScheduling}),
 * or, once every such reservation is spent, takes {@code reserved} out of its capacity types so it launches on-demand
 * (or spot) as the NodePool allows.
 */
final class ReservationLedger {
  private final Map<String, Integer> remaining = new HashMap<>();

  /** The room of every reservation the pools' offerings name; the least one seen when two pools disagree. */
  static ReservationLedger of(List<PoolContext> pools) {
    ReservationLedger ledger = new ReservationLedger();
    for (PoolContext pool : pools) {
      for (InstanceTypeOptions.TypeFacts facts : pool.types) {
        for (OfferingView o : facts.type().offerings()) {
          if (o.reservation() != null) {
            ledger.remaining.merge(o.reservation().id(), o.reservation().capacity(), Math::min);
          }
        }
      }
    }
    return ledger;
  }

  boolean isEmpty() {
    return remaining.isEmpty();
  }

  /** {@code claim} pinned to a reservation with room (which it then takes), or without {@code reserved}. */
  NodeClaimRequest assign(NodeClaimRequest claim, List<InstanceTypeOptions.TypeFacts> types) {
    LabelConstraint capacityType = constraint(claim, WellKnown.CAPACITY_TYPE_LABEL);
    if (!capacityType.allows(WellKnown.CAPACITY_RESERVED)) {
      return claim;
    }
    LabelConstraint zone = constraint(claim, WellKnown.ZONE_LABEL);
    Map<String, InstanceTypeView> byName = new HashMap<>();
    types.forEach(t -> byName.put(t.type().name(), t.type()));
    for (String typeName : claim.instanceTypes()) {
      InstanceTypeView type = byName.get(typeName);
      if (type == null) {
        continue;
      }
      for (OfferingView o : type.offerings()) {
        if (o.reservation() != null && o.available() && zone.allows(o.zone()) && remaining.getOrDefault(o.reservation().id(), 0) > 0) {
          remaining.merge(o.reservation().id(), -1, Integer::sum);
          return pinned(claim, typeName, o);
        }
      }
    }
    return withoutReserved(claim, byName, zone);
  }

  private static NodeClaimRequest pinned(NodeClaimRequest claim, String typeName, OfferingView offering) {
    OfferingView.Reservation r = offering.reservation();
    Map<String, Requirement> pins = Map.of(
        WellKnown.INSTANCE_TYPE_LABEL, Requirement.in(WellKnown.INSTANCE_TYPE_LABEL, List.of(typeName)),
        WellKnown.ZONE_LABEL, Requirement.in(WellKnown.ZONE_LABEL, List.of(offering.zone())),
        WellKnown.CAPACITY_TYPE_LABEL, Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of(WellKnown.CAPACITY_RESERVED)),
        WellKnown.CAPACITY_RESERVATION_ID_LABEL, Requirement.in(WellKnown.CAPACITY_RESERVATION_ID_LABEL, List.of(r.id())),
        WellKnown.CAPACITY_RESERVATION_TYPE_LABEL, Requirement.in(WellKnown.CAPACITY_RESERVATION_TYPE_LABEL, List.of(r.type())),
        WellKnown.CAPACITY_RESERVATION_INTERRUPTIBLE_LABEL,
        Requirement.in(WellKnown.CAPACITY_RESERVATION_INTERRUPTIBLE_LABEL, List.of(Boolean.toString(r.interruptible()))));
    List<Requirement> requirements = new ArrayList<>();
    for (Requirement req : claim.requirements()) {
      if (!pins.containsKey(req.key())) {
        requirements.add(req);
      }
    }
    new TreeSet<>(pins.keySet()).forEach(k -> requirements.add(pins.get(k)));
    return claim.withInstanceTypes(List.of(typeName)).withRequirements(requirements);
  }

  /**
   * Without {@code reserved}: the capacity types left, and the types that still have an available offering of one
   * of them in an allowed zone. Unchanged when nothing would be left (its launch then fails for capacity and the pods
   * are planned again with the reservations' counts of then).
   */
  private static NodeClaimRequest withoutReserved(NodeClaimRequest claim, Map<String, InstanceTypeView> byName, LabelConstraint zone) {
    List<String> others = constraint(claim, WellKnown.CAPACITY_TYPE_LABEL).in() == null ? null
        : new TreeSet<>(constraint(claim, WellKnown.CAPACITY_TYPE_LABEL).in()).stream()
            .filter(c -> !c.equals(WellKnown.CAPACITY_RESERVED)).toList();
    Set<String> otherSet = others == null ? null : Set.copyOf(others);
    List<String> kept = claim.instanceTypes().stream().filter(name -> {
      InstanceTypeView type = byName.get(name);
      return type == null || type.offerings().stream().anyMatch(o -> o.reservation() == null && o.available() && zone.allows(o.zone())
          && !o.capacityType().equals(WellKnown.CAPACITY_RESERVED) && (otherSet == null || otherSet.contains(o.capacityType())));
    }).toList();
    if ((others != null && others.isEmpty()) || kept.isEmpty()) {
      return claim;
    }
    List<Requirement> requirements = new ArrayList<>();
    for (Requirement req : claim.requirements()) {
      if (req.key().equals(WellKnown.CAPACITY_TYPE_LABEL) && others != null) {
        requirements.add(new Requirement(req.key(), req.operator(), others, req.minValues()));
      } else if (req.key().equals(WellKnown.CAPACITY_TYPE_LABEL)) {
        requirements.add(req);
        requirements.add(new Requirement(WellKnown.CAPACITY_TYPE_LABEL, "NotIn", List.of(WellKnown.CAPACITY_RESERVED), null));
      } else if (req.key().equals(WellKnown.INSTANCE_TYPE_LABEL) && "In".equals(req.operator())) {
        requirements.add(new Requirement(req.key(), req.operator(), kept, req.minValues()));
      } else {
        requirements.add(req);
      }
    }
    return claim.withInstanceTypes(kept).withRequirements(requirements);
  }

  private static LabelConstraint constraint(NodeClaimRequest claim, String key) {
    LabelConstraint c = LabelConstraint.ANY;
    for (Requirement r : claim.requirements()) {
      if (r.key().equals(key)) {
        c = c.and(LabelConstraint.of(r));
      }
    }
    return c;
  }
}
