package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.CapacityReservation;
import java.time.Instant;
import java.util.Map;

/**
 * A capacity reservation as the state file keeps it: its fixed facts and size. How many instances it can still take is
 * derived, never stored: {@code totalInstanceCount} less the instances launched into it that are not terminated, so a
 * launch takes one and a termination gives it back, in every process on the state directory.
 *
 * @param endTime when it ends (null: never); a Capacity Block is {@code expiring} from 40 minutes before
 */
record StoredReservation(String id, String instanceType, String zone, String ownerId, String instanceMatchCriteria,
    String reservationType, boolean interruptible, int totalInstanceCount, Instant endTime, Map<String, String> tags) {
  StoredReservation {
    tags = tags == null ? Map.of() : Map.copyOf(tags);
  }

  CapacityReservation at(Instant now, int used) {
    return new CapacityReservation(id, instanceType, zone, ownerId, instanceMatchCriteria, reservationType, interruptible, endTime,
        Math.max(0, totalInstanceCount - used), CapacityReservation.stateAt(reservationType, endTime, now));
  }

  boolean ended(Instant now) {
    return endTime != null && !now.isBefore(endTime);
  }

  StoredReservation endingAt(Instant end) {
    return new StoredReservation(id, instanceType, zone, ownerId, instanceMatchCriteria, reservationType, interruptible,
        totalInstanceCount, end, tags);
  }
}
