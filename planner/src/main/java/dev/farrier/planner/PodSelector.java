package dev.farrier.planner;

import dev.farrier.model.Requirement;
import java.util.List;
import java.util.Map;

/**
 * A Kubernetes label selector over pod labels ({@code matchLabels} ANDed with {@code matchExpressions}; operators
 * In, NotIn, Exists, DoesNotExist). An empty selector matches every pod; a topology or affinity term without a
 * selector is given {@link #NOTHING}, which matches none (Kubernetes' nil selector).
 */
public record PodSelector(Map<String, String> matchLabels, List<Requirement> matchExpressions, boolean matchesNothing) {
  public static final PodSelector NOTHING = new PodSelector(Map.of(), List.of(), true);

  public PodSelector {
    matchLabels = matchLabels == null ? Map.of() : Map.copyOf(matchLabels);
    matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
  }

  public static PodSelector of(Map<String, String> matchLabels, List<Requirement> matchExpressions) {
    return new PodSelector(matchLabels, matchExpressions, false);
  }

  /** Whether a pod with these labels is selected. */
  public boolean matches(Map<String, String> labels) {
    if (matchesNothing) {
      return false;
    }
    for (var e : matchLabels.entrySet()) {
      if (!e.getValue().equals(labels.get(e.getKey()))) {
        return false;
      }
    }
    for (Requirement r : matchExpressions) {
      String value = labels.get(r.key());
      boolean ok = switch (r.operator() == null ? "" : r.operator()) {
        case "In" -> value != null && r.values().contains(value);
        case "NotIn" -> value == null || !r.values().contains(value);
        case "Exists" -> value != null;
        case "DoesNotExist" -> value == null;
        default -> false;
      };
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
