package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.CapacityReservationTerm;
import dev.farrier.activities.cloud.SelectorTags;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.model.DescribeCapacityReservationsRequest;
import software.amazon.awssdk.services.ec2.model.DescribeCapacityReservationsResponse;
import software.amazon.awssdk.services.ec2.model.Filter;

/**
 * Capacity reservation selector terms to reservations, as karpenter-provider-aws's {@code capacityreservation} provider
 * queries them: one {@code DescribeCapacityReservations} per term, always filtered to {@code state=active}; an id term
 * by {@code CapacityReservationIds} (an unknown id is no error: nothing), any other by {@code owner-id},
 * {@code tag:<key>} (or {@code tag-key} for a {@code *} value) and {@code instance-match-criteria}, up to 1,000 a page;
 * reservations found twice kept once, those past their end dropped, sorted by id. A term with neither tags nor match
 * criteria (an owner alone) queries nothing, as upstream.
 */
final class AwsCapacityReservations {
  private static final Set<String> MATCH_CRITERIA = Set.of("open", "targeted");
  private final Ec2Api ec2;
  private final Clock clock;

  AwsCapacityReservations(Ec2Api ec2, Clock clock) {
    this.ec2 = ec2;
    this.clock = clock;
  }

  List<CapacityReservation> resolve(List<CapacityReservationTerm> terms) {
    Instant now = clock.instant();
    Map<String, CapacityReservation> found = new LinkedHashMap<>();
    for (CapacityReservationTerm term : terms) {
      DescribeCapacityReservationsRequest query = query(term);
      if (query == null) {
        continue;
      }
      String token = null;
      do {
        DescribeCapacityReservationsResponse page;
        try {
          page = ec2.describeCapacityReservations(token == null ? query : query.toBuilder().nextToken(token).build());
        } catch (SdkException e) {
          String code = Ec2Errors.code(e);
          if (code != null && code.startsWith("InvalidCapacityReservationId.")) {
            break;
          }
          throw Ec2Errors.map("DescribeCapacityReservations for " + term, e);
        }
        for (var r : page.capacityReservations()) {
          // Guard against criteria EC2 may add later, as Karpenter does.
          if (!MATCH_CRITERIA.contains(r.instanceMatchCriteriaAsString()) || (r.endDate() != null && !r.endDate().isAfter(now))) {
            continue;
          }
          String type = r.reservationTypeAsString() == null || r.reservationTypeAsString().isBlank() ? CapacityReservation.DEFAULT
              : r.reservationTypeAsString();
          found.putIfAbsent(r.capacityReservationId(), new CapacityReservation(r.capacityReservationId(), r.instanceType(),
              r.availabilityZone(), r.ownerId(), r.instanceMatchCriteriaAsString(), type, Boolean.TRUE.equals(r.interruptible()),
              r.endDate(), r.availableInstanceCount() == null ? 0 : r.availableInstanceCount(),
              CapacityReservation.stateAt(type, r.endDate(), now)));
        }
        token = term.id() != null && !term.id().isBlank() ? null : page.nextToken();
      } while (token != null && !token.isBlank());
    }
    List<CapacityReservation> all = new ArrayList<>(found.values());
    all.sort(Comparator.comparing(CapacityReservation::id));
    return all;
  }

  /** The request for one term, null when the term queries nothing. */
  static DescribeCapacityReservationsRequest query(CapacityReservationTerm term) {
    List<Filter> filters = new ArrayList<>(List.of(filter("state", "active")));
    if (term.id() != null && !term.id().isBlank()) {
      // MaxResults cannot be used when listing by id.
      return DescribeCapacityReservationsRequest.builder().capacityReservationIds(term.id()).filters(filters).build();
    }
    boolean criteria = term.instanceMatchCriteria() != null && !term.instanceMatchCriteria().isBlank();
    if (term.tags().isEmpty() && !criteria) {
      return null;
    }
    if (term.ownerId() != null && !term.ownerId().isBlank()) {
      filters.add(filter("owner-id", term.ownerId()));
    }
    term.tags().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(t -> filters.add(SelectorTags.ANY.equals(t.getValue())
        ? filter("tag-key", t.getKey()) : filter("tag:" + t.getKey(), t.getValue())));
    if (criteria) {
      filters.add(filter("instance-match-criteria", term.instanceMatchCriteria()));
    }
    return DescribeCapacityReservationsRequest.builder().filters(filters).maxResults(1000).build();
  }

  private static Filter filter(String name, String value) {
    return Filter.builder().name(name).values(value).build();
  }
}
