package dev.farrier.activities.nodeclass;

import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.CapacityReservationTerm;
import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.crd.CapacityReservationSelectorTerm;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.ResolvedCapacityReservation;
import dev.farrier.model.WellKnown;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An EC2NodeClass's capacity reservations: its terms and status entries as the cloud's records, the reservations of a
 * launch, and the labels a node launched into one carries (as Karpenter's offering requirements).
 */
public final class NodeClassReservations {
  private NodeClassReservations() {}

  /** A {@code capacityReservationSelectorTerms} entry as the cloud takes it. */
  public static CapacityReservationTerm term(CapacityReservationSelectorTerm t) {
    return new CapacityReservationTerm(t.id(), t.ownerID(), t.tags(), t.instanceMatchCriteria());
  }

  /** The class's terms as the cloud takes them; none when it selects no reservation. */
  public static List<CapacityReservationTerm> terms(EC2NodeClass nodeClass) {
    return nodeClass == null ? List.of()
        : nodeClass.getSpec().capacityReservationSelectorTermsOrEmpty().stream().map(NodeClassReservations::term).toList();
  }

  /** A {@code status.capacityReservations} entry, as karpenter-provider-aws writes it ({@code CapacityReservationFromEC2}). */
  public static ResolvedCapacityReservation status(CapacityReservation r) {
    return new ResolvedCapacityReservation(r.zone(), r.endTime() == null ? null : r.endTime().toString(), r.id(),
        r.instanceMatchCriteria(), r.instanceType(), r.ownerId(), r.reservationType(), r.interruptible(), r.state());
  }

  /** A status entry back as the cloud's record; its room is unknown (a status has none). */
  public static CapacityReservation reservation(ResolvedCapacityReservation r) {
    return new CapacityReservation(r.id(), r.instanceType(), r.availabilityZone(), r.ownerID(), r.instanceMatchCriteria(),
        r.reservationType(), Boolean.TRUE.equals(r.interruptible()), r.endTime() == null ? null : Instant.parse(r.endTime()),
        CapacityReservation.UNKNOWN_COUNT, r.state());
  }

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
          : nodeClass.getStatus().capacityReservationsOrEmpty().stream().map(NodeClassReservations::reservation).toList();
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
        .map(CapacityReservation::nodeLabels)
        .orElse(Map.of(WellKnown.CAPACITY_RESERVATION_ID_LABEL, instance.capacityReservationId()));
  }
}
