package dev.farrier.workflows.planner;

import dev.farrier.workflows.activities.ReplacementPlan;
import dev.farrier.workflows.model.NodeClaimRequest;
import dev.farrier.workflows.model.Requirement;
import dev.farrier.workflows.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
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

  /** The types with only their offerings cheaper than {@code maxPricePerHour}; all of them when it is null. */
  public static List<InstanceTypeView> below(List<InstanceTypeView> types, Double maxPricePerHour) {
    if (maxPricePerHour == null) {
      return types;
    }
    List<InstanceTypeView> out = new ArrayList<>();
    for (InstanceTypeView t : types) {
      List<OfferingView> cheaper = t.offerings().stream().filter(o -> o.pricePerHour() < maxPricePerHour).toList();
      if (!cheaper.isEmpty()) {
        out.add(new InstanceTypeView(t.name(), t.arch(), t.labels(), t.capacity(), cheaper));
      }
    }
    return out;
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
    NodeClaimRequest narrowed = new NodeClaimRequest(claim.name(), claim.nodePool(), claim.nodeClassName(), claim.instanceTypes(),
        requirements, claim.requests(), claim.labels(), claim.taints(), claim.startupTaints(), claim.nodePoolHash(),
        claim.expireAfter(), claim.terminationGracePeriodSeconds(), claim.pods(), claim.disruptionReason());
    return new ReplacementPlan(narrowed, plan.reschedulablePods(), plan.description() + "; only offerings under $"
        + String.format(java.util.Locale.ROOT, "%.4f", maxPricePerHour) + "/h (" + String.join(", ", capacityTypes) + ")");
  }
}
