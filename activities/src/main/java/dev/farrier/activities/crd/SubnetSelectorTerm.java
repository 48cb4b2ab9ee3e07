package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/** One {@code subnetSelectorTerms} entry: an {@code id} or {@code tags} (a {@code *} value matches any value). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record SubnetSelectorTerm(String id, Map<String, String> tags) {}
