package dev.farrier.activities.crd;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Reads and merges condition lists by type. */
public final class Conditions {
  private Conditions() {}

  public static Optional<Condition> find(List<Condition> conditions, String type) {
    if (conditions == null) {
      return Optional.empty();
    }
    return conditions.stream().filter(c -> type.equals(c.type())).findFirst();
  }

  public static boolean isTrue(List<Condition> conditions, String type) {
    return find(conditions, type).map(Condition::isTrue).orElse(false);
  }

  /**
   * The conditions as computed against {@code generation} of their object's spec ({@code observedGeneration}, as
   * Karpenter's conditions say it); null stays null. Every status write stamps the conditions it sets this way.
   */
  public static List<Condition> observedAt(Long generation, List<Condition> conditions) {
    if (conditions == null) {
      return null;
    }
    return conditions.stream()
        .map(c -> new Condition(c.type(), c.status(), generation, c.lastTransitionTime(), c.reason(), c.message())).toList();
  }

  /**
   * Returns {@code current} with each of {@code updates} replacing the condition of the same type. When an update
   * does not change a condition's status, the existing {@code lastTransitionTime} is kept: the time says when the
   * status changed, so rewriting the same status (a retried activity) must not move it.
   */
  public static List<Condition> merge(List<Condition> current, List<Condition> updates) {
    List<Condition> merged = new ArrayList<>(current == null ? List.of() : current);
    for (Condition update : updates) {
      int index = indexOf(merged, update.type());
      if (index < 0) {
        merged.add(update);
        continue;
      }
      Condition existing = merged.get(index);
      String since = existing.status() != null && existing.status().equals(update.status())
          ? existing.lastTransitionTime() : update.lastTransitionTime();
      merged.set(index, new Condition(update.type(), update.status(), update.observedGeneration(), since,
          update.reason(), update.message()));
    }
    return List.copyOf(merged);
  }

  /** {@link #merge(List, List)}, then without the conditions of the {@code removed} types. */
  public static List<Condition> merge(List<Condition> current, List<Condition> updates, Collection<String> removed) {
    return merge(current, updates).stream().filter(c -> !removed.contains(c.type())).toList();
  }

  private static int indexOf(List<Condition> conditions, String type) {
    for (int i = 0; i < conditions.size(); i++) {
      if (type.equals(conditions.get(i).type())) {
        return i;
      }
    }
    return -1;
  }
}
