package dev.farrier.bench;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.ClaimNamer;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodeAllocatable;
import dev.farrier.planner.NodePoolLimits;
import dev.farrier.planner.NodePoolView;
import dev.farrier.planner.OfferingView;
import dev.farrier.planner.PodSpecView;
import dev.farrier.planner.ProvisioningPlanner;
import dev.farrier.planner.ProvisioningSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The fleet a naive placement makes, for consolidation to start from. The rule:
 * <ul>
 *   <li>One node type: the cheapest on-demand general-purpose type (instance category {@code m}) whose allocatable holds
 *       the workload's median pod four times (median CPU request and median memory request, each the upper median).</li>
 *   <li>Pods in arrival order, each planned alone by {@link ProvisioningPlanner} against the nodes made so far, with a
 *       NodePool that allows only that type, on-demand: the pod goes on the first node (by name, i.e. in the order they
 *       were opened) that holds it within its constraints, else on a new node of that type. That is first fit, with
 *       topology spread and pod (anti-)affinity kept by the planner's own rules. A pod that fits nowhere yet (its required
 *       pod affinity selects no pod placed so far) is tried again after the others, as the kube-scheduler retries it.</li>
 * </ul>
 */
final class NaivePacking {
  static final int PODS_PER_NODE = 4;
  static final String CATEGORY = "m";

  private NaivePacking() {}

  /** The type of the rule; throws when no general-purpose type holds the median pod four times. */
  static InstanceTypeView type(List<BenchPod> pods, List<InstanceTypeView> types) {
    long cpu = upperMedian(pods.stream().mapToLong(BenchPod::milliCpu).sorted().toArray());
    long memory = upperMedian(pods.stream().mapToLong(BenchPod::memoryBytes).sorted().toArray());
    return types.stream()
        .filter(t -> CATEGORY.equals(t.labels().get(WellKnown.INSTANCE_CATEGORY_LABEL)) && onDemandPrice(t) < Double.POSITIVE_INFINITY)
        .filter(t -> {
          Resources a = NodeAllocatable.of(t, KubeletSettings.DEFAULTS);
          return a.milliCpu() >= PODS_PER_NODE * cpu && a.memoryBytes() >= PODS_PER_NODE * memory && a.pods() >= PODS_PER_NODE;
        })
        .min(Comparator.comparingDouble(NaivePacking::onDemandPrice).thenComparing(InstanceTypeView::name))
        .orElseThrow(() -> new IllegalStateException("no general-purpose type holds " + PODS_PER_NODE + " pods of " + cpu
            + "m and " + memory + " bytes"));
  }

  /** Packs {@code pods} in the order given onto nodes of {@code type} by the rule. */
  static Fleet pack(List<PodSpecView> pods, InstanceTypeView type) {
    NodePoolView pool = new NodePoolView(PlannerInput.NODE_POOL, 0,
        List.of(Requirement.in(WellKnown.INSTANCE_TYPE_LABEL, List.of(type.name())),
            Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of(WellKnown.CAPACITY_ON_DEMAND))),
        Map.of(), List.of(), List.of(), PlannerInput.NODE_CLASS, NodePoolLimits.NONE, Resources.ZERO, PlannerInput.POOL_HASH,
        List.of(), null, null);
    Map<String, List<InstanceTypeView>> types = Map.of(PlannerInput.NODE_POOL, List.of(type));
    Fleet fleet = new Fleet();
    ProvisioningPlanner planner = new ProvisioningPlanner();
    List<PodSpecView> waiting = pods;
    while (!waiting.isEmpty()) {
      List<PodSpecView> deferred = new ArrayList<>();
      String why = null;
      for (PodSpecView pod : waiting) {
        ProvisioningPlan plan = planner.plan(new ProvisioningSnapshot(List.of(pod), List.of(pool), types, List.of(), fleet.views(),
            Map.of()), "naive", ClaimNamer.standard());
        if (!plan.onExisting().isEmpty()) {
          fleet.bind(plan.onExisting().getFirst().node(), List.of(pod));
        } else if (!plan.claims().isEmpty()) {
          NodeClaimRequest claim = plan.claims().getFirst();
          fleet.add(FleetNode.launched(fleet.newName("node"), claim, List.of(type), List.of(pod)));
        } else {
          deferred.add(pod);
          why = pod.pod().name() + ": " + plan.unschedulable().getFirst().reason();
        }
      }
      if (deferred.size() == waiting.size()) {
        throw new IllegalStateException("naive packing: " + deferred.size() + " pods fit nowhere, e.g. " + why);
      }
      waiting = deferred;
    }
    return fleet;
  }

  private static long upperMedian(long[] sorted) {
    return sorted[sorted.length / 2];
  }

  private static double onDemandPrice(InstanceTypeView type) {
    return type.offerings().stream().filter(o -> o.available() && WellKnown.CAPACITY_ON_DEMAND.equals(o.capacityType()))
        .mapToDouble(OfferingView::pricePerHour).min().orElse(Double.POSITIVE_INFINITY);
  }
}
