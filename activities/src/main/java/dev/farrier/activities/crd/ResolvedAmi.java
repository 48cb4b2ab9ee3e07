package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** An image {@code amiSelectorTerms} resolved to, with the requirements (e.g. architecture) it applies to. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ResolvedAmi(String id, String name, Boolean deprecated, List<RequirementWithMinValues> requirements) {}
