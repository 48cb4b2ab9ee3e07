package dev.farrier.activities.views;

import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.InstanceTypeLabels;
import dev.farrier.activities.cloud.aws.EphemeralStorage;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.OfferingView;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The planner's view of the cloud's instance types: what planning, the status loop's capacity check and the scheduling
 * benchmark all feed the planner, so they see the same capacity and offerings.
 */
public final class InstanceTypeViews {
  private InstanceTypeViews() {}

  /**
   * The catalogue's types of the given Kubernetes archs, as the planner sees them (also the status loop's capacity check),
   * each with the ephemeral storage a node of it offers ({@link EphemeralStorage#bytes}: the instance store under RAID0).
   */
  public static List<InstanceTypeView> instanceTypes(List<InstanceType> catalog, Set<String> archs, EphemeralStorage storage) {
    return instanceTypes(catalog, archs, storage, List.of());
  }

  /**
   * As {@link #instanceTypes(List, Set, EphemeralStorage)}, with a {@code reserved} offering per capacity reservation of
   * the type (karpenter-provider-aws's {@code ReservedCapacityResolver}): in the reservation's zone, priced at the
   * on-demand price divided by {@link #RESERVED_PRICE_DIVISOR} (free, as the instances are paid for already, yet ordered
   * as on-demand is for consolidation), available while the reservation is active with room left and the type is offered
   * in that zone at all.
   */
  public static List<InstanceTypeView> instanceTypes(List<InstanceType> catalog, Set<String> archs, EphemeralStorage storage,
      List<CapacityReservation> reservations) {
    return catalog.stream().filter(t -> archs.contains(t.kubernetesArch()))
        .map(t -> withReservations(view(t, storage.bytes(t)), t, reservations)).toList();
  }

  /** Karpenter's divisor of the on-demand price for a reserved offering. */
  public static final double RESERVED_PRICE_DIVISOR = 10_000_000.0;

  private static InstanceTypeView withReservations(InstanceTypeView view, InstanceType type, List<CapacityReservation> reservations) {
    List<OfferingView> offerings = new ArrayList<>(view.offerings());
    for (CapacityReservation r : reservations) {
      if (!r.instanceType().equals(type.name())) {
        continue;
      }
      double onDemand = type.offerings().stream().filter(o -> o.capacityType().equals(WellKnown.CAPACITY_ON_DEMAND))
          .mapToDouble(o -> o.pricePerHour()).min().orElse(0);
      boolean zoneOffered = type.offerings().stream().anyMatch(o -> o.zone().equals(r.zone()));
      int room = r.availableInstanceCount() == CapacityReservation.UNKNOWN_COUNT ? Integer.MAX_VALUE : r.availableInstanceCount();
      offerings.add(new OfferingView(r.zone(), WellKnown.CAPACITY_RESERVED, onDemand / RESERVED_PRICE_DIVISOR,
          zoneOffered && r.launchable(), new OfferingView.Reservation(r.id(), r.reservationType(), r.interruptible(), room)));
    }
    return offerings.size() == view.offerings().size() ? view
        : new InstanceTypeView(view.name(), view.arch(), view.labels(), view.capacity(), offerings);
  }

  /** The planner's view of a catalogue type with Karpenter's default root volume ({@link EphemeralStorage#DEFAULT_BYTES}). */
  public static InstanceTypeView view(InstanceType t) {
    return view(t, EphemeralStorage.DEFAULT_BYTES);
  }

  /**
   * The planner's view of a catalogue type whose nodes offer {@code ephemeralStorageBytes}; public so the scheduling
   * benchmark feeds the planner what it sees here.
   */
  public static InstanceTypeView view(InstanceType t, long ephemeralStorageBytes) {
    var capacity = t.capacity(ephemeralStorageBytes);
    var offerings = t.offerings().stream().map(o -> new OfferingView(o.zone(), o.capacityType(), o.pricePerHour(), o.available())).toList();
    return new InstanceTypeView(t.name(), t.kubernetesArch(), InstanceTypeLabels.of(t), capacity, offerings);
  }
}
