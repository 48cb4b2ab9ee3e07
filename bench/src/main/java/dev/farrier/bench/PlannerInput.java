package dev.farrier.bench;

import dev.farrier.model.PodRef;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.DisruptionBudget;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.NodePoolLimits;
import dev.farrier.planner.NodePoolView;
import dev.farrier.planner.PodAffinityTerm;
import dev.farrier.planner.PodSelector;
import dev.farrier.planner.PodSpecView;
import dev.farrier.planner.ProvisioningSnapshot;
import dev.farrier.planner.TopologySpread;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Translates a benchmark workload into the provisioning planner's input: one NodePool ({@value #NODE_POOL}, spot
 * and on-demand, every zone, no limits, no DaemonSets) over the given instance types, and the pods as a
 * Deployment's pods would be read. The only part of the benchmark that knows the planner's model.
 */
final class PlannerInput {
  static final String NODE_POOL = "default";
  static final String NAMESPACE = "bench";
  static final String NODE_CLASS = "default";
  /** The NodePool's template hash, which its nodes carry too (so they are never drifted). */
  static final String POOL_HASH = "bench";

  private PlannerInput() {}

  static ProvisioningSnapshot snapshot(List<BenchPod> pods, List<InstanceTypeView> types) {
    List<PodSpecView> views = pods.stream().map(PlannerInput::pod).toList();
    return new ProvisioningSnapshot(views, List.of(pool(List.of())), Map.of(NODE_POOL, types), List.of());
  }

  /** The same over a catalogue, whose kubelet settings the NodePool's node class carries. */
  static ProvisioningSnapshot snapshot(List<BenchPod> pods, Catalog catalog) {
    List<PodSpecView> views = pods.stream().map(PlannerInput::pod).toList();
    return new ProvisioningSnapshot(views, List.of(pool(List.of())), Map.of(NODE_POOL, catalog.types()), List.of(),
        List.of(), Map.of(NODE_POOL, catalog.kubelet()));
  }

  /**
   * The same NodePool as consolidation sees it: {@code WhenEmptyOrUnderutilized} after {@code 0s} (every node is a
   * candidate at once, so rounds follow each other without waiting), under {@code budgets}.
   */
  static NodePoolView consolidatingPool(List<DisruptionBudget> budgets) {
    return pool(budgets).withConsolidation(NodePoolView.WHEN_EMPTY_OR_UNDERUTILIZED, "0s");
  }

  private static NodePoolView pool(List<DisruptionBudget> budgets) {
    return new NodePoolView(NODE_POOL, 0,
        List.of(Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of(WellKnown.CAPACITY_SPOT, WellKnown.CAPACITY_ON_DEMAND))),
        Map.of(), List.of(), List.of(), NODE_CLASS, NodePoolLimits.NONE, Resources.ZERO, POOL_HASH, budgets, null, null);
  }

  static PodSpecView pod(BenchPod pod) {
    BenchPod.Constraint c = pod.constraint();
    PodSelector selector = PodSelector.of(c.selector(), List.of());
    List<TopologySpread> spread = c.kind() == BenchPod.Kind.SPREAD
        ? List.of(new TopologySpread(c.topologyKey(), 1, true, null, selector))
        : List.of();
    List<PodAffinityTerm> affinity = c.kind() == BenchPod.Kind.AFFINITY || c.kind() == BenchPod.Kind.ANTI_AFFINITY
        ? List.of(new PodAffinityTerm(c.topologyKey(), selector, Set.of(), false, c.kind() == BenchPod.Kind.ANTI_AFFINITY, true, 0))
        : List.of();
    return new PodSpecView(new PodRef(NAMESPACE, pod.name(), "uid-" + pod.name()),
        Resources.of(pod.milliCpu(), pod.memoryBytes(), 1), Map.of(), List.of(), List.of(), "ReplicaSet", false,
        pod.labels(), List.of(), spread, affinity, List.of());
  }
}
