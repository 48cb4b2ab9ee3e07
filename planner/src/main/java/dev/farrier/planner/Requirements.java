package dev.farrier.planner;

import dev.farrier.model.Requirement;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A conjunction of node label requirements, keyed by label, remembering where each came from so a conflict can be
 * explained ("requirement kubernetes.io/arch In [arm64] conflicts with pod nodeSelector kubernetes.io/arch=amd64").
 * The one place both planners match labels. Immutable.
 */
final class Requirements {
  static final Requirements NONE = new Requirements(new TreeMap<>(), new TreeMap<>());

  private final SortedMap<String, LabelConstraint> byKey;
  private final SortedMap<String, List<String>> sources;

  private Requirements(SortedMap<String, LabelConstraint> byKey, SortedMap<String, List<String>> sources) {
    this.byKey = Collections.unmodifiableSortedMap(byKey);
    this.sources = Collections.unmodifiableSortedMap(sources);
  }

  /** Requirements as written, each described as {@code <prefix> <key> <op> [values]}. */
  static Requirements of(List<Requirement> requirements, String sourcePrefix) {
    Requirements result = NONE;
    for (Requirement r : requirements) {
      result = result.and(r.key(), LabelConstraint.of(r), sourcePrefix + " " + describe(r));
    }
    return result;
  }

  /** Labels that must equal the given values, each described as {@code <prefix> key=value}. */
  static Requirements ofLabels(Map<String, String> labels, String sourcePrefix) {
    Requirements result = NONE;
    for (var e : new TreeMap<>(labels).entrySet()) {
      result = result.and(e.getKey(), LabelConstraint.equalTo(e.getValue()), sourcePrefix + " " + e.getKey() + "=" + e.getValue());
    }
    return result;
  }

  Requirements and(String key, LabelConstraint constraint, String source) {
    SortedMap<String, LabelConstraint> keys = new TreeMap<>(byKey);
    SortedMap<String, List<String>> srcs = new TreeMap<>(sources);
    keys.merge(key, constraint, LabelConstraint::and);
    List<String> list = new ArrayList<>(srcs.getOrDefault(key, List.of()));
    list.add(source);
    srcs.put(key, List.copyOf(list));
    return new Requirements(keys, srcs);
  }

  Requirements and(Requirements other) {
    if (other.byKey.isEmpty()) {
      return this;
    }
    if (byKey.isEmpty()) {
      return other;
    }
    SortedMap<String, LabelConstraint> keys = new TreeMap<>(byKey);
    SortedMap<String, List<String>> srcs = new TreeMap<>(sources);
    other.byKey.forEach((k, c) -> keys.merge(k, c, LabelConstraint::and));
    other.sources.forEach((k, s) -> {
      List<String> list = new ArrayList<>(srcs.getOrDefault(k, List.of()));
      list.addAll(s);
      srcs.put(k, List.copyOf(list));
    });
    return new Requirements(keys, srcs);
  }

  /** Where the constraints on {@code key} came from, joined ({@code nodepool requirement k In [a]}). */
  String sourcesOf(String key) {
    return String.join(" and ", sources.getOrDefault(key, List.of()));
  }

  LabelConstraint get(String key) {
    return byKey.getOrDefault(key, LabelConstraint.ANY);
  }

  SortedMap<String, LabelConstraint> constraints() {
    return byKey;
  }

  /** Whether a node with these labels meets every requirement here on the given keys (other keys unchecked). */
  boolean allowsOn(Map<String, String> labels, java.util.function.Predicate<String> keyFilter) {
    return byKey.entrySet().stream()
        .filter(e -> keyFilter.test(e.getKey()))
        .allMatch(e -> e.getValue().allows(labels.get(e.getKey())));
  }

  /** The first key (sorted) nothing can satisfy, described, or null when every key is satisfiable. */
  String firstUnsatisfiable() {
    for (var e : byKey.entrySet()) {
      if (!e.getValue().satisfiable()) {
        return String.join(" and ", sources.get(e.getKey())) + " cannot all hold";
      }
    }
    return null;
  }

  /**
   * Why a node meeting {@code this} (a NodePool's requirements and labels) cannot meet {@code other} (a pod's), or
   * null when both can hold together. A key {@code other} needs present that {@code this} does not define and that
   * is not a well-known label no node of this pool will have.
   */
  String conflictWith(Requirements other) {
    String own = other.firstUnsatisfiable();
    if (own != null) {
      return own;
    }
    for (var e : other.byKey.entrySet()) {
      String key = e.getKey();
      LabelConstraint theirs = e.getValue();
      LabelConstraint mine = byKey.get(key);
      if (mine == null) {
        if (theirs.mustExist() && !isWellKnown(key)) {
          return String.join(" and ", other.sources.get(key)) + " needs label " + key + ", which the nodepool does not define";
        }
        continue;
      }
      if (!mine.and(theirs).satisfiable()) {
        return String.join(" and ", sources.get(key)) + " conflicts with " + String.join(" and ", other.sources.get(key));
      }
    }
    return null;
  }

  /** The requirements here as Kubernetes writes them, by key. */
  List<Requirement> toList() {
    List<Requirement> out = new ArrayList<>();
    byKey.forEach((k, c) -> out.addAll(c.toRequirements(k)));
    return out;
  }

  /**
   * Labels the instance type, the offering or Farrier sets on every node: a pod may require these even when the
   * NodePool does not mention them.
   */
  static boolean isWellKnown(String key) {
    return isInstanceTypeKey(key) || isOfferingKey(key)
        || key.equals(WellKnown.NODEPOOL_LABEL) || key.equals(WellKnown.NODECLASS_LABEL);
  }

  /** Labels whose value follows from the instance type alone. */
  static boolean isInstanceTypeKey(String key) {
    return key.equals(WellKnown.INSTANCE_TYPE_LABEL) || key.equals(WellKnown.ARCH_LABEL) || key.equals(WellKnown.OS_LABEL)
        || key.equals(WellKnown.WINDOWS_BUILD_LABEL) || key.startsWith("karpenter.k8s.aws/instance-");
  }

  /** Labels whose value follows from the offering (where and how the instance is bought). */
  static boolean isOfferingKey(String key) {
    return key.equals(WellKnown.ZONE_LABEL) || key.equals(WellKnown.CAPACITY_TYPE_LABEL);
  }

  static String describe(Requirement r) {
    String op = r.operator();
    return switch (op == null ? "" : op) {
      case "Exists", "DoesNotExist" -> r.key() + " " + op;
      default -> r.key() + " " + op + " " + r.values();
    };
  }

  /** Equal when they constrain the same keys the same way, wherever the constraints came from. */
  @Override
  public boolean equals(Object o) {
    return o instanceof Requirements r && byKey.equals(r.byKey);
  }

  @Override
  public int hashCode() {
    return byKey.hashCode();
  }

  @Override
  public String toString() {
    return toList().stream().map(Requirements::describe).toList().toString();
  }
}
