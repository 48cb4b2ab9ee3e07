package dev.farrier.activities.kube;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;

/** Matches a label selector against labels as the API server does for a policy/v1 PodDisruptionBudget. */
public final class LabelSelectors {
  private LabelSelectors() {}

  /** A null selector selects nothing; an empty one (policy/v1) selects every pod of the namespace. */
  public static boolean matches(LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      return false;
    }
    Map<String, String> actual = labels == null ? Map.of() : labels;
    Map<String, String> matchLabels = selector.getMatchLabels() == null ? Map.of() : selector.getMatchLabels();
    for (var required : matchLabels.entrySet()) {
      if (!required.getValue().equals(actual.get(required.getKey()))) {
        return false;
      }
    }
    List<LabelSelectorRequirement> expressions =
        selector.getMatchExpressions() == null ? List.of() : selector.getMatchExpressions();
    return expressions.stream().allMatch(e -> matches(e, actual));
  }

  private static boolean matches(LabelSelectorRequirement requirement, Map<String, String> labels) {
    String value = labels.get(requirement.getKey());
    List<String> values = requirement.getValues() == null ? List.of() : requirement.getValues();
    return switch (requirement.getOperator()) {
      case "In" -> value != null && values.contains(value);
      case "NotIn" -> value == null || !values.contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      default -> false;
    };
  }
}
