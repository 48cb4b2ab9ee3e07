package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.farrier.activities.cloud.CapacityReservation;
import java.time.Instant;

/**
 * One {@code status.capacityReservations} entry, as karpenter-provider-aws writes it ({@code CapacityReservationFromEC2}).
 *
 * @param endTime RFC 3339, absent when the reservation does not end
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ResolvedCapacityReservation(
    String availabilityZone,
    String endTime,
    String id,
    String instanceMatchCriteria,
    String instanceType,
    String ownerID,
    String reservationType,
    Boolean interruptible,
    String state) {
  public static ResolvedCapacityReservation of(CapacityReservation r) {
    return new ResolvedCapacityReservation(r.zone(), r.endTime() == null ? null : r.endTime().toString(), r.id(),
        r.instanceMatchCriteria(), r.instanceType(), r.ownerId(), r.reservationType(), r.interruptible(), r.state());
  }

  /** Back as the cloud's record; the count is unknown (a status has none). */
  public CapacityReservation toReservation() {
    return new CapacityReservation(id, instanceType, availabilityZone, ownerID, instanceMatchCriteria, reservationType,
        Boolean.TRUE.equals(interruptible), endTime == null ? null : Instant.parse(endTime), CapacityReservation.UNKNOWN_COUNT, state);
  }
}
