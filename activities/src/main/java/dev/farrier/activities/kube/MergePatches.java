package dev.farrier.activities.kube;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What the fabric8 ports' read-modify-writes ({@link OptimisticPatcher}) share: the merge-patch bodies that bring an
 * object to its target state (null when it is there already, so nothing is sent), and the rule that a write which
 * needs its object throws {@link ObjectNotFoundException} when it is gone.
 */
final class MergePatches {
  private MergePatches() {
  }

  static <T> T require(OptimisticPatcher.Outcome<T> outcome, String kind, String name) {
    if (!outcome.found()) {
      throw new ObjectNotFoundException(kind, name);
    }
    return outcome.object();
  }

  static <T extends HasMetadata> Function<T, Map<String, Object>> withFinalizer(String finalizer, boolean present) {
    return object -> {
      List<String> finalizers = object.getMetadata().getFinalizers() == null ? List.of() : object.getMetadata().getFinalizers();
      if (finalizers.contains(finalizer) == present) {
        return null;
      }
      List<String> updated = new ArrayList<>(finalizers);
      if (present) {
        updated.add(finalizer);
      } else {
        updated.removeIf(finalizer::equals);
      }
      return Map.of("metadata", Map.of("finalizers", updated));
    };
  }

  /** {@link Conditions#observedAt} the generation of {@code object}, the object the status write read. */
  static List<Condition> observedAt(HasMetadata object, List<Condition> conditions) {
    return Conditions.observedAt(object.getMetadata().getGeneration(), conditions);
  }

  /** Conditions merged by type; null when there is nothing to merge (the stored list stays as it is). */
  static List<Condition> mergeConditions(List<Condition> stored, List<Condition> updates) {
    if (updates == null || updates.isEmpty()) {
      return stored;
    }
    return Conditions.merge(stored, updates);
  }

  /** Conditions merged by type, without the {@code removed} types; the stored list when nothing is to change. */
  static List<Condition> mergeConditions(List<Condition> stored, List<Condition> updates, Collection<String> removed) {
    if (removed.isEmpty() || stored == null) {
      return mergeConditions(stored, updates);
    }
    return Conditions.merge(stored, updates == null ? List.of() : updates, removed);
  }

  /** The merge patch that writes {@code target} as the whole status, or null when it equals what is stored. */
  static Map<String, Object> statusPatch(Object stored, Object target) {
    return Objects.equals(stored, target) ? null : Map.of("status", target);
  }

  /**
   * The metadata merge patch's labels and annotations that differ from {@code object}'s (empty, and mutable, when none
   * does); null or empty {@code labels} / {@code annotations} ask for nothing.
   */
  static Map<String, Object> metadataChanges(HasMetadata object, Map<String, String> labels, Map<String, String> annotations) {
    Map<String, Object> metadata = new LinkedHashMap<>();
    putIfChanges(metadata, "labels", object.getMetadata().getLabels(), labels);
    putIfChanges(metadata, "annotations", object.getMetadata().getAnnotations(), annotations);
    return metadata;
  }

  /** Adds {@code key: changes} to the metadata patch when a change differs from what is stored. */
  private static void putIfChanges(Map<String, Object> metadata, String key, Map<String, String> stored, Map<String, String> changes) {
    if (changes == null || changes.isEmpty()) {
      return;
    }
    Map<String, String> current = stored == null ? Map.of() : stored;
    boolean differs = changes.entrySet().stream().anyMatch(e -> e.getValue() == null
        ? current.containsKey(e.getKey())
        : !e.getValue().equals(current.get(e.getKey())));
    if (differs) {
      metadata.put(key, new HashMap<>(changes)); // null values stay: merge patch null removes the key
    }
  }
}
