package dev.farrier.planner;

import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The instance types a claim may launch as: those whose labels meet the claim's requirements, with an available
 * offering in an allowed zone and capacity type, whose allocatable holds the claim's requests and whose capacity
 * keeps the NodePool within its limits; ranked by their cheapest such offering, then name. A claim lists the first
 * {@link #MAX_INSTANCE_TYPES}; the rest are kept so a claim that narrows can fall back to them.
 */
record InstanceTypeOptions(List<Option> ranked, String whyNone) {
  /** Karpenter's cap on the types a NodeClaim lists (the launch API call size). */
  static final int MAX_INSTANCE_TYPES = 60;

  /** An instance type with what the planner derives from it once per plan. */
  record TypeFacts(InstanceTypeView type, Resources allocatable) {
    static TypeFacts of(InstanceTypeView type) {
      return of(type, KubeletSettings.DEFAULTS);
    }

    static TypeFacts of(InstanceTypeView type, KubeletSettings kubelet) {
      return new TypeFacts(type, KubeletReserve.allocatable(type.capacity(), kubelet));
    }

    /** The type's node labels ({@link InstanceTypeView#labels}). */
    Map<String, String> labels() {
      return type.labels();
    }
  }

  /** One compatible type with its cheapest usable price and the zones and capacity types it can be bought in. */
  record Option(TypeFacts facts, double price, Set<String> zones, Set<String> capacityTypes) {
    InstanceTypeView type() {
      return facts.type();
    }
  }

  boolean isEmpty() {
    return ranked.isEmpty();
  }

  Option cheapest() {
    return ranked.getFirst();
  }

  /** What a claim lists: the cheapest {@link #MAX_INSTANCE_TYPES}. */
  List<Option> top() {
    return ranked.size() > MAX_INSTANCE_TYPES ? ranked.subList(0, MAX_INSTANCE_TYPES) : ranked;
  }

  /** The facts of every ranked type, to re-rank from when the claim narrows. */
  List<TypeFacts> facts() {
    return ranked.stream().map(Option::facts).toList();
  }

  /**
   * The ranked types that still have room for {@code requests} and stay within limits, same order, same prices:
   * for a claim whose requirements did not change, so labels and offerings need no second look.
   */
  InstanceTypeOptions refit(Requirements requirements, Resources requests, Function<Resources, String> limitViolation) {
    List<Option> kept = ranked.stream()
        .filter(o -> requests.fitsIn(o.facts().allocatable())
            && (limitViolation == null || limitViolation.apply(o.type().capacity()) == null))
        .toList();
    String whyNone = kept.isEmpty()
        ? "no compatible instance type has room for " + Quantities.describe(requests) + " within limits"
        : unmetMinValues(kept, requirements);
    return new InstanceTypeOptions(whyNone == null ? kept : List.of(), whyNone);
  }

  /**
   * The {@code compatible} types (already matched to {@code requirements}, cheapest first) with room for
   * {@code requests} and within limits ({@code limitViolation} null when the pool has none). The fast path of
   * {@link #rank}: when nothing is left, {@link #whyNone} is only a placeholder and a caller that must explain calls
   * {@code rank}.
   */
  static InstanceTypeOptions fit(
      List<Option> compatible, Requirements requirements, Resources requests, Function<Resources, String> limitViolation) {
    List<Option> kept = new ArrayList<>();
    for (Option o : compatible) {
      if (requests.fitsIn(o.facts().allocatable())
          && (limitViolation == null || limitViolation.apply(o.type().capacity()) == null)) {
        kept.add(o);
      }
    }
    if (kept.isEmpty()) {
      return new InstanceTypeOptions(List.of(), "no instance type fits");
    }
    String whyNone = hasMinValues(requirements) ? unmetMinValues(kept, requirements) : null;
    return whyNone == null ? new InstanceTypeOptions(kept, null) : new InstanceTypeOptions(List.of(), whyNone);
  }

  private static boolean hasMinValues(Requirements requirements) {
    for (LabelConstraint c : requirements.constraints().values()) {
      if (c.minValues() != null) {
        return true;
      }
    }
    return false;
  }

  /**
   * @param limitViolation why a claim of this capacity would take the NodePool over its limits, null when it would not
   */
  static InstanceTypeOptions rank(
      List<TypeFacts> types, Requirements requirements, Resources requests, Function<Resources, String> limitViolation) {
    LabelConstraint zone = requirements.get(WellKnown.ZONE_LABEL);
    LabelConstraint capacityType = requirements.get(WellKnown.CAPACITY_TYPE_LABEL);
    List<Option> options = new ArrayList<>();
    int matchingLabels = 0;
    int withOffering = 0;
    int fitting = 0;
    Resources largest = null;
    String firstViolation = null;
    for (TypeFacts facts : types) {
      InstanceTypeView type = facts.type();
      if (!requirements.allowsOn(facts.labels(), Requirements::isInstanceTypeKey)) {
        continue;
      }
      matchingLabels++;
      double price = Double.POSITIVE_INFINITY;
      Set<String> zones = new TreeSet<>();
      Set<String> capacityTypes = new TreeSet<>();
      for (OfferingView o : type.offerings()) {
        if (o.available() && zone.allows(o.zone()) && capacityType.allows(o.capacityType())) {
          price = Math.min(price, o.pricePerHour());
          zones.add(o.zone());
          capacityTypes.add(o.capacityType());
        }
      }
      if (zones.isEmpty()) {
        continue;
      }
      withOffering++;
      Resources allocatable = facts.allocatable();
      if (largest == null || allocatable.milliCpu() > largest.milliCpu()) {
        largest = allocatable;
      }
      if (!requests.fitsIn(allocatable)) {
        continue;
      }
      fitting++;
      String violation = limitViolation == null ? null : limitViolation.apply(type.capacity());
      if (violation != null) {
        firstViolation = firstViolation == null ? violation : firstViolation;
        continue;
      }
      options.add(new Option(facts, price, zones, capacityTypes));
    }
    options.sort(Comparator.comparingDouble(Option::price).thenComparing(o -> o.type().name()));
    List<Option> ranked = options;
    String whyNone = null;
    if (ranked.isEmpty()) {
      whyNone = types.isEmpty() ? "no instance types are offered for its node class"
          : matchingLabels == 0 ? "no instance type meets requirements " + instanceTypeRequirements(requirements)
          : withOffering == 0 ? "no available offering of the " + matchingLabels + " matching instance types in zones "
              + describe(zone) + " and capacity types " + describe(capacityType)
          : fitting == 0 ? "no instance type has room for " + Quantities.describe(requests) + " (largest allocatable: "
              + Quantities.describe(largest) + ")"
          : "nodepool limits: " + firstViolation;
    } else {
      whyNone = unmetMinValues(ranked, requirements);
      if (whyNone != null) {
        ranked = List.of();
      }
    }
    return new InstanceTypeOptions(List.copyOf(ranked), whyNone);
  }

  /**
   * Karpenter's minValues: the compatible types must span at least that many values of the key. Checked over every
   * compatible type, not only the listed cheapest 60.
   */
  private static String unmetMinValues(List<Option> ranked, Requirements requirements) {
    for (var e : requirements.constraints().entrySet()) {
      Integer min = e.getValue().minValues();
      if (min == null) {
        continue;
      }
      Set<String> values = new HashSet<>();
      for (Option o : ranked) {
        Map<String, String> labels = o.facts().labels();
        if (labels.containsKey(e.getKey())) {
          values.add(labels.get(e.getKey()));
        } else if (e.getKey().equals(WellKnown.ZONE_LABEL)) {
          values.addAll(o.zones());
        } else if (e.getKey().equals(WellKnown.CAPACITY_TYPE_LABEL)) {
          values.addAll(o.capacityTypes());
        }
      }
      if (values.size() < min) {
        return "minValues " + min + " on " + e.getKey() + " not met: the compatible instance types span only "
            + values.size();
      }
    }
    return null;
  }

  private static String instanceTypeRequirements(Requirements requirements) {
    return requirements.toList().stream()
        .filter(r -> Requirements.isInstanceTypeKey(r.key()))
        .map(Requirements::describe)
        .toList()
        .toString();
  }

  private static String describe(LabelConstraint c) {
    return c.in() != null ? new TreeSet<>(c.in()).toString()
        : c.notIn().isEmpty() ? "(any)" : "(any but " + new TreeSet<>(c.notIn()) + ")";
  }
}
