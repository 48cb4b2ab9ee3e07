package dev.farrier.activities.cloud;

import java.util.Map;

/**
 * One {@code capacityReservationSelectorTerms} entry: an id, or tags (a {@code *} value matching any value) and/or an
 * instance match criteria ({@code open}, {@code targeted}), optionally with the owning account. As karpenter-provider-aws's
 * {@code QueriesFromSelectorTerms}, an {@code ownerID} alone selects nothing; the CRD refuses such a term anyway.
 */
public record CapacityReservationTerm(String id, String ownerId, Map<String, String> tags, String instanceMatchCriteria) {
  public CapacityReservationTerm {
    tags = tags == null ? Map.of() : Map.copyOf(tags);
  }

  public static CapacityReservationTerm byId(String id) {
    return new CapacityReservationTerm(id, null, Map.of(), null);
  }

  /** Whether {@code reservation} is one this term selects (the simulated cloud's filter; EC2 filters the same way). */
  public boolean selects(CapacityReservation reservation, Map<String, String> reservationTags) {
    if (id != null && !id.isBlank()) {
      return id.equals(reservation.id());
    }
    if (tags.isEmpty() && (instanceMatchCriteria == null || instanceMatchCriteria.isBlank())) {
      return false;
    }
    return (ownerId == null || ownerId.isBlank() || ownerId.equals(reservation.ownerId()))
        && (instanceMatchCriteria == null || instanceMatchCriteria.isBlank()
            || instanceMatchCriteria.equals(reservation.instanceMatchCriteria()))
        && SelectorTags.match(tags, reservationTags);
  }
}
