package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * One {@code capacityReservationSelectorTerms} entry: an {@code id}, or {@code tags} (a {@code *} value matches any
 * value) and/or {@code instanceMatchCriteria} ({@code open}, {@code targeted}), with an optional {@code ownerID}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record CapacityReservationSelectorTerm(String id, String ownerID, Map<String, String> tags, String instanceMatchCriteria) {}
