package dev.farrier.activities.nodeclass;

import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.CapacityReservationTerm;
import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.ResolvedCapacityReservation;
import dev.farrier.model.WellKnown;
import java.util.List;
import java.util.Map;

/** The capacity reservations of a launch, and the labels a node launched into one carries (as Karpenter's offering requirements). */
public final class ReservationLabels {
  private ReservationLabels() {}

  /**
   * The reservations {@code ids} name, in that order, as the cloud reports them now (their room included); from the
   * class's status when the cloud cannot say (a pinned launch then lets EC2 decide); none when {@code ids} is empty.
   * Asked of the cloud rather than read from the status alone: a claim planned right after its class started
   * selecting a reservation may launch before the status loop has written it.
   */
  public static List<CapacityReservation> reservationsFor(CloudProvider cloud, EC2NodeClass nodeClass, List<String> ids) {
    if (ids.isEmpty()) {
      return List.of();
    }
    List<CapacityReservation> found;
    try {
      found = cloud.resolveCapacityReservations(ids.stream().map(CapacityReservationTerm::byId).toList());
    } catch (CloudProviderException e) {
      found = nodeClass.getStatus() == null ? List.of()
          : nodeClass.getStatus().capacityReservationsOrEmpty().stream().map(ResolvedCapacityReservation::toReservation).toList();
    }
    List<CapacityReservation> known = found;
    return ids.stream().flatMap(id -> known.stream().filter(r -> id.equals(r.id()))).toList();
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
