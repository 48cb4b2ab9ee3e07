package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

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
    String state) {}
