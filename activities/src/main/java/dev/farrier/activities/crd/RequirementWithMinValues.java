package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.farrier.model.Requirement;
import java.util.List;

/** A node selector requirement with Karpenter's optional {@code minValues} (the wire form of {@link Requirement}). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RequirementWithMinValues(String key, String operator, List<String> values, Integer minValues) {
  public static RequirementWithMinValues from(Requirement requirement) {
    List<String> values = requirement.values().isEmpty() ? null : requirement.values();
    return new RequirementWithMinValues(requirement.key(), requirement.operator(), values, requirement.minValues());
  }

  public Requirement toRequirement() {
    return new Requirement(key, operator, values, minValues);
  }
}
