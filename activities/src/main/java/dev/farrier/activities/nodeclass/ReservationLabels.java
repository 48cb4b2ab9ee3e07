package dev.farrier.activities.nodeclass;

import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.ResolvedCapacityReservation;
import dev.farrier.model.WellKnown;
import java.util.List;
import java.util.Map;

/** The capacity reservations of a launch, and the labels a node launched into one carries (as Karpenter's offering requirements). */
public final class ReservationLabels {
  private ReservationLabels() {}

  /** The class's reservations (from its status) that {@code ids} name, in that order; none when {@code ids} is empty. */
  public static List<CapacityReservation> reservationsFor(EC2NodeClass nodeClass, List<String> ids) {
    if (ids.isEmpty() || nodeClass.getStatus() == null) {
      return List.of();
    }
    return ids.stream().flatMap(id -> nodeClass.getStatus().capacityReservationsOrEmpty().stream().filter(r -> id.equals(r.id())))
        .map(ResolvedCapacityReservation::toReservation).toList();
  }

  /**
   * {@code karpenter.k8s.aws/capacity-reservation-id}, {@code -type} and {@code -interruptible} of an instance launched
   * into one of {@code reservations}; empty for any other instance.
   */
  public static Map<String, String> of(Instance instance, List<CapacityReservation> reservations) {
    if (instance.capacityReservationId() == null) {
      return Map.of();
    }
    return reservations.stream().filter(r -> r.id().equals(instance.capacityReservationId())).findFirst()
        .map(ReservationLabels::of)
        .orElse(Map.of(WellKnown.CAPACITY_RESERVATION_ID_LABEL, instance.capacityReservationId()));
  }

  public static Map<String, String> of(CapacityReservation r) {
    return Map.of(WellKnown.CAPACITY_RESERVATION_ID_LABEL, r.id(), WellKnown.CAPACITY_RESERVATION_TYPE_LABEL, r.reservationType(),
        WellKnown.CAPACITY_RESERVATION_INTERRUPTIBLE_LABEL, Boolean.toString(r.interruptible()));
  }
}
