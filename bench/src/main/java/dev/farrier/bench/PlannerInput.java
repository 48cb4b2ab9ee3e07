package dev.farrier.bench;

import dev.farrier.workflows.model.PodRef;
import dev.farrier.workflows.model.Requirement;
import dev.farrier.workflows.model.Resources;
import dev.farrier.workflows.model.WellKnown;
import dev.farrier.workflows.planner.InstanceTypeView;
import dev.farrier.workflows.planner.NodePoolLimits;
import dev.farrier.workflows.planner.NodePoolView;
import dev.farrier.workflows.planner.PodSpecView;
import dev.farrier.workflows.planner.ProvisioningSnapshot;
import java.util.List;
import java.util.Map;

/**
 * Translates a benchmark workload into the provisioning planner's input: one NodePool ({@value #NODE_POOL}, spot
 * and on-demand, every zone, no limits, no DaemonSets) over the given instance types, and the pods as a
 * Deployment's pods would be read. The only part of the benchmark that knows the planner's model.
 */
final class PlannerInput {
  static final String NODE_POOL = "default";

  private PlannerInput() {}

  static ProvisioningSnapshot snapshot(List<BenchPod> pods, List<InstanceTypeView> types) {
    NodePoolView pool = new NodePoolView(NODE_POOL, 0,
        List.of(Requirement.in(WellKnown.CAPACITY_TYPE_LABEL, List.of("spot", "on-demand"))), Map.of(), List.of(),
        List.of(), "default", NodePoolLimits.NONE, Resources.ZERO, "bench", List.of(), null, null);
    List<PodSpecView> views = pods.stream().map(PlannerInput::pod).toList();
    return new ProvisioningSnapshot(views, List.of(pool), Map.of(NODE_POOL, types), List.of());
  }

  private static PodSpecView pod(BenchPod pod) {
    return new PodSpecView(new PodRef("bench", pod.name(), "uid-" + pod.name()),
        Resources.of(pod.milliCpu(), pod.memoryBytes(), 1), Map.of(), List.of(), List.of(), "ReplicaSet", false);
  }

  /**
   * Whether the planner's model can express this pod's constraint. This planner has no topology spread or pod
   * (anti-)affinity yet: such pods are planned on their requests alone, and the report says how many were.
   */
  static boolean modelled(BenchPod pod) {
    return pod.constraint().kind() == BenchPod.Kind.NONE;
  }
}
