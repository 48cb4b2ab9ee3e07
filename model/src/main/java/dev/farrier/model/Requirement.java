package dev.farrier.model;

import java.util.List;

/**
 * A node selector requirement as Kubernetes and Karpenter write it: {@code key operator values}, with Karpenter's
 * optional {@code minValues}. Operators: In, NotIn, Exists, DoesNotExist, Gt, Lt, and on NodePools Gte, Lte.
 */
public record Requirement(String key, String operator, List<String> values, Integer minValues) {
  public Requirement {
    values = values == null ? List.of() : List.copyOf(values);
  }

  public static Requirement in(String key, List<String> values) {
    return new Requirement(key, "In", values, null);
  }

  public static Requirement exists(String key) {
    return new Requirement(key, "Exists", List.of(), null);
  }

  public static Requirement doesNotExist(String key) {
    return new Requirement(key, "DoesNotExist", List.of(), null);
  }
}
