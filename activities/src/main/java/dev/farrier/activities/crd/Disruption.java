package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * {@code spec.disruption} of a NodePool.
 *
 * @param consolidationPolicy {@code WhenEmpty}, {@code WhenEmptyOrUnderutilized} (the default) or {@code Balanced}
 * @param consolidateAfter    a duration or {@code Never}
 * @param budgets             null means the default {@code [{nodes: 10%}]}; an empty list means no budget
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Disruption(String consolidationPolicy, String consolidateAfter, List<Budget> budgets) {
  public static final String WHEN_EMPTY = "WhenEmpty";
  public static final String WHEN_EMPTY_OR_UNDERUTILIZED = "WhenEmptyOrUnderutilized";
  public static final String BALANCED = "Balanced";

  public String consolidationPolicyOrDefault() {
    return consolidationPolicy == null ? WHEN_EMPTY_OR_UNDERUTILIZED : consolidationPolicy;
  }

  public List<Budget> budgetsOrDefault() {
    return budgets == null ? List.of(Budget.DEFAULT) : budgets;
  }
}
