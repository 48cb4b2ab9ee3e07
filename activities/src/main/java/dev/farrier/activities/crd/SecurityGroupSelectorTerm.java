package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/** One {@code securityGroupSelectorTerms} entry: an {@code id}, a {@code name}, or {@code tags}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record SecurityGroupSelectorTerm(String id, String name, Map<String, String> tags) {}
