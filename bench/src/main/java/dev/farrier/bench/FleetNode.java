package dev.farrier.bench;

import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.ClaimPrice;
import dev.farrier.planner.ExistingNodeView;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodeClaimView;
import dev.farrier.planner.OfferingView;
import dev.farrier.planner.PodSpecView;
import dev.farrier.planner.PodsOnNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One node of a simulated fleet: an instance type bought at one offering (zone, capacity type, price), the benchmark
 * pods bound to it, and how the planners see it (a Node with its NodeClaim, initialized an hour ago). Immutable: a
 * change of pods is a new node with the same name.
 */
final class FleetNode {
  private static final long HOUR = 3_600_000L;

  private final String name;
  private final InstanceTypeView type;
  private final OfferingView offering;
  private final List<PodSpecView> pods;
  private final ExistingNodeView view;

  FleetNode(String name, InstanceTypeView type, OfferingView offering, List<PodSpecView> pods) {
    this.name = name;
    this.type = type;
    this.offering = offering;
    this.pods = List.copyOf(pods);
    Map<String, String> labels = new TreeMap<>(type.labels());
    labels.put(WellKnown.HOSTNAME_LABEL, name);
    labels.put(WellKnown.ZONE_LABEL, offering.zone());
    labels.put(WellKnown.CAPACITY_TYPE_LABEL, offering.capacityType());
    labels.put(WellKnown.NODEPOOL_LABEL, PlannerInput.NODE_POOL);
    this.view = new ExistingNodeView(name, PlannerInput.NODE_POOL, labels, List.of(), type.allocatable(KubeletSettings.DEFAULTS),
        this.pods, Resources.ZERO, true, true);
  }

  /**
   * The node a planned claim becomes: its first-ranked type at the cheapest offering its requirements allow (what the
   * launch asks EC2 for first). Checked against {@link ClaimPrice}, the price the planners expect of the claim.
   */
  static FleetNode launched(String name, NodeClaimRequest claim, List<InstanceTypeView> types, List<PodSpecView> pods) {
    String first = claim.instanceTypes().getFirst();
    InstanceTypeView type = types.stream().filter(t -> t.name().equals(first)).findFirst()
        .orElseThrow(() -> new IllegalStateException("claim " + claim.name() + " lists " + first + ", which is not offered"));
    OfferingView offering = type.offerings().stream()
        .filter(o -> o.available() && allows(claim, WellKnown.ZONE_LABEL, o.zone())
            && allows(claim, WellKnown.CAPACITY_TYPE_LABEL, o.capacityType()))
        .min(Comparator.comparingDouble(OfferingView::pricePerHour).thenComparing(OfferingView::zone))
        .orElseThrow(() -> new IllegalStateException("claim " + claim.name() + " has no offering of " + first + " it may launch as"));
    double expected = ClaimPrice.perHour(claim, types);
    if (offering.pricePerHour() != expected) {
      throw new IllegalStateException("claim " + claim.name() + " launches at $" + offering.pricePerHour() + "/h, ClaimPrice says $"
          + expected + "/h");
    }
    return new FleetNode(name, type, offering, pods);
  }

  /** Whether the claim's requirements on {@code key} allow {@code value} (In, NotIn, Exists, DoesNotExist). */
  private static boolean allows(NodeClaimRequest claim, String key, String value) {
    for (Requirement r : claim.requirements()) {
      if (!r.key().equals(key)) {
        continue;
      }
      boolean ok = switch (r.operator()) {
        case "In" -> r.values().contains(value);
        case "NotIn" -> !r.values().contains(value);
        case "DoesNotExist" -> false;
        default -> true;
      };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  FleetNode withPods(List<PodSpecView> added) {
    List<PodSpecView> all = new ArrayList<>(pods);
    all.addAll(added);
    return new FleetNode(name, type, offering, all);
  }

  String name() {
    return name;
  }

  InstanceTypeView type() {
    return type;
  }

  OfferingView offering() {
    return offering;
  }

  double pricePerHour() {
    return offering.pricePerHour();
  }

  List<PodSpecView> pods() {
    return pods;
  }

  /** The node as the provisioning planner sees it: capacity for pending pods, pods that topology counts. */
  ExistingNodeView view() {
    return view;
  }

  /**
   * The node's NodeClaim as the disruption planner sees it: launched by Farrier from the benchmark's NodePool (same
   * template hash, no image or launch facts to drift on), initialized an hour before {@code nowMillis} with its last pod
   * event then, not being disrupted.
   */
  NodeClaimView claim(long nowMillis) {
    return new NodeClaimView(name, PlannerInput.NODE_POOL, PlannerInput.NODE_CLASS, name, "i-" + name, null, type.arch(),
        PlannerInput.POOL_HASH, offering.capacityType(), type.name(), offering.zone(), true, true, false, false, false, false,
        nowMillis - HOUR, null, null, null, PodsOnNode.of(pods), false, false)
        .withPodEvents(nowMillis - HOUR, nowMillis - HOUR, null);
  }
}
