package dev.farrier.activities.cloud;

import java.time.Duration;
import java.time.Instant;

/**
 * An EC2 capacity reservation a node class may launch into (an On-Demand Capacity Reservation, or a Capacity Block),
 * as {@code DescribeCapacityReservations} reports it and {@code status.capacityReservations} records it.
 *
 * @param instanceMatchCriteria  {@code open} or {@code targeted}
 * @param reservationType        {@code default} or {@code capacity-block}
 * @param endTime                when the reservation ends; null when it does not
 * @param availableInstanceCount instances it can still take; -1 when unknown (read back from a status, which has no count)
 * @param state                  {@code active} or {@code expiring} ({@link #stateAt})
 */
public record CapacityReservation(
    String id,
    String instanceType,
    String zone,
    String ownerId,
    String instanceMatchCriteria,
    String reservationType,
    boolean interruptible,
    Instant endTime,
    int availableInstanceCount,
    String state) {
  public static final String DEFAULT = "default";
  public static final String CAPACITY_BLOCK = "capacity-block";
  public static final String ACTIVE = "active";
  public static final String EXPIRING = "expiring";
  public static final int UNKNOWN_COUNT = -1;
  /**
   * karpenter-provider-aws's {@code capacityReservationExpirationPeriod}: a Capacity Block is expiring from 40 minutes
   * before its end, 10 minutes before EC2 starts reclaiming its instances (30 minutes before the end).
   */
  public static final Duration EXPIRATION_PERIOD = Duration.ofMinutes(40);

  public CapacityReservation {
    reservationType = reservationType == null || reservationType.isBlank() ? DEFAULT : reservationType;
    state = state == null || state.isBlank() ? ACTIVE : state;
  }

  /** Only a Capacity Block with an end time expires; it does from {@link #EXPIRATION_PERIOD} before the end. */
  public static String stateAt(String reservationType, Instant endTime, Instant now) {
    boolean expiring = CAPACITY_BLOCK.equals(reservationType) && endTime != null && !now.isBefore(endTime.minus(EXPIRATION_PERIOD));
    return expiring ? EXPIRING : ACTIVE;
  }

  /**
   * The labels a node launched into it carries: {@code karpenter.k8s.aws/capacity-reservation-id}, {@code -type} and
   * {@code -interruptible} (karpenter-provider-aws's reserved offering requirements).
   */
  public java.util.Map<String, String> nodeLabels() {
    return java.util.Map.of(dev.farrier.model.WellKnown.CAPACITY_RESERVATION_ID_LABEL, id,
        dev.farrier.model.WellKnown.CAPACITY_RESERVATION_TYPE_LABEL, reservationType,
        dev.farrier.model.WellKnown.CAPACITY_RESERVATION_INTERRUPTIBLE_LABEL, Boolean.toString(interruptible));
  }

  /** Whether a launch may go into it now: active, and (when the count is known) with room left. */
  public boolean launchable() {
    return ACTIVE.equals(state) && availableInstanceCount != 0;
  }
}
