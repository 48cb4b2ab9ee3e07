package dev.farrier.planner;

import dev.farrier.model.Requirement;
import java.util.List;

/**
 * One {@code preferredDuringSchedulingIgnoredDuringExecution} node affinity term: {@code matchExpressions} ANDed,
 * with its weight (1-100). The planner treats preferences as requirements and drops them one at a time, lowest
 * weight first, while a pod fits nowhere with them.
 */
public record PreferredNodeTerm(int weight, List<Requirement> requirements) {
  public PreferredNodeTerm {
    requirements = requirements == null ? List.of() : List.copyOf(requirements);
  }
}
