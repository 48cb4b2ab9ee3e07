package dev.farrier.planner;

import dev.farrier.model.ReplacementPlan;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The price ceiling of a consolidation's replacement: a node replaced because a cheaper one holds its pods must never
 * be replaced by one that costs as much or more. The instance types offered to the replacement keep only their
 * offerings cheaper than the ceiling (types left with none are dropped), and the replacement's capacity types are
 * narrowed to those that have such offerings, so a launch that finds no spot capacity cannot fall back to a dearer
 * on-demand node (as Karpenter narrows an on-demand-to-spot consolidation to spot).
 */
public final class CheaperOfferings {
  private CheaperOfferings() {}

  /**
   * Karpenter's spot-to-spot minimum: a spot node is replaced by a spot node only when at least this many cheaper
   * instance types hold its pods, and the replacement is launched with the cheapest this many (upstream's guard against
   * walking down the price ladder: a spot launch picks by availability as well as price, so with fewer choices each
   * replacement could start the next one).
   */
  public static final int SPOT_TO_SPOT_MIN_TYPES = 15;

  /** The types with only their offerings cheaper than {@code maxPricePerHour}; all of them when it is null. */
  public static List<InstanceTypeView> below(List<InstanceTypeView> types, Double maxPricePerHour) {
    return below(types, maxPricePerHour, false);
  }

  /**
   * As {@link #below(List, Double)}, keeping only spot offerings when {@code spotOnly} (a spot node's replacement is
   * spot: spot-to-spot consolidation).
   */
  public static List<InstanceTypeView> below(List<InstanceTypeView> types, Double maxPricePerHour, boolean spotOnly) {
    if (maxPricePerHour == null) {
      return types;
    }
    List<InstanceTypeView> out = new ArrayList<>();
    for (InstanceTypeView t : types) {
      List<OfferingView> cheaper = t.offerings().stream().filter(o -> o.pricePerHour() < maxPricePerHour)
          .filter(o -> !spotOnly || WellKnown.CAPACITY_SPOT.equals(o.capacityType())).toList();
      if (!cheaper.isEmpty()) {
        out.add(new InstanceTypeView(t.name(), t.arch(), t.labels(), t.capacity(), cheaper));
      }
    }
    return out;
  }

  /**
   * A spot node's replacement, planned over cheaper spot offerings only ({@link #below(List, Double, boolean)}): none
   * when fewer than {@link #SPOT_TO_SPOT_MIN_TYPES} instance types hold its pods, else launched with the cheapest
   * {@value #SPOT_TO_SPOT_MIN_TYPES} (the claim lists them cheapest first), and more in that order while a requirement's
   * {@code minValues} needs them.
   */
  public static ReplacementPlan spotToSpot(ReplacementPlan plan, List<InstanceTypeView> filtered) {
    NodeClaimRequest claim = plan.replacement();
    if (claim == null) {
      return plan;
    }
    int options = claim.instanceTypes().size();
    if (options < SPOT_TO_SPOT_MIN_TYPES) {
      return new ReplacementPlan(null, plan.reschedulablePods(), "spot-to-spot consolidation needs " + SPOT_TO_SPOT_MIN_TYPES
          + " cheaper spot instance types that hold its pods, found " + options);
    }
    Map<String, InstanceTypeView> byName = new HashMap<>();
    filtered.forEach(t -> byName.put(t.name(), t));
    List<String> kept = new ArrayList<>(claim.instanceTypes().subList(0, SPOT_TO_SPOT_MIN_TYPES));
    for (String next : claim.instanceTypes().subList(SPOT_TO_SPOT_MIN_TYPES, options)) {
      if (minValuesMet(claim.requirements(), kept, byName)) {
        break;
      }
      kept.add(next);
    }
    NodeClaimRequest narrowed = claim.withInstanceTypes(List.copyOf(kept));
    return new ReplacementPlan(narrowed, plan.reschedulablePods(), plan.description() + "; spot-to-spot: the " + kept.size()
        + " cheapest of " + options + " spot instance types");
  }

  /** Whether the types span at least {@code minValues} values of every requirement that sets one. */
  private static boolean minValuesMet(List<Requirement> requirements, List<String> types, Map<String, InstanceTypeView> byName) {
    for (Requirement r : requirements) {
      if (r.minValues() == null) {
        continue;
      }
      Set<String> values = new HashSet<>();
      for (String name : types) {
        InstanceTypeView t = byName.get(name);
        String value = WellKnown.INSTANCE_TYPE_LABEL.equals(r.key()) ? name : t == null ? null : t.labels().get(r.key());
        if (value != null) {
          values.add(value);
        }
      }
      if (values.size() < r.minValues()) {
        return false;
      }
    }
    return true;
  }

  /** The plan's replacement narrowed to the capacity types its (already filtered) types offer; as it is without a ceiling. */
  public static ReplacementPlan restrict(ReplacementPlan plan, List<InstanceTypeView> filtered, Double maxPricePerHour) {
    if (maxPricePerHour == null || plan.replacement() == null) {
      return plan;
    }
    NodeClaimRequest claim = plan.replacement();
    TreeSet<String> capacityTypes = new TreeSet<>();
    filtered.stream().filter(t -> claim.instanceTypes().contains(t.name()))
        .forEach(t -> t.offerings().stream().filter(OfferingView::available).forEach(o -> capacityTypes.add(o.capacityType())));
    List<Requirement> requirements = new ArrayList<>(claim.requirements());
    requirements.add(Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.copyOf(capacityTypes)));
    NodeClaimRequest narrowed = claim.withRequirements(requirements);
    return new ReplacementPlan(narrowed, plan.reschedulablePods(), plan.description() + "; only offerings under $"
        + String.format(java.util.Locale.ROOT, "%.4f", maxPricePerHour) + "/h (" + String.join(", ", capacityTypes) + ")");
  }
}
