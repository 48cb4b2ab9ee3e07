package dev.farrier.bench;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PodRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a plan must get right before its speed and price mean anything. Every pod accounted for exactly once, or
 * the run is refused; and claims holding two or more hostname anti-affinity pods (the constraint that decides the
 * diverse mix's node count) are counted, so a planner that ignores it cannot look fast and cheap unnoticed. The
 * planner's own tests check every constraint.
 */
final class PlanCheck {
  private PlanCheck() {}

  /** Throws when a pod is lost or duplicated; returns how many claims break hostname anti-affinity. */
  static int verify(ProvisioningPlan plan, List<BenchPod> pods) {
    Map<String, BenchPod> byName = pods.stream().collect(Collectors.toMap(BenchPod::name, Function.identity()));
    List<String> seen = new ArrayList<>();
    plan.claims().forEach(c -> c.pods().stream().map(PodRef::name).forEach(seen::add));
    plan.onExisting().forEach(e -> e.pods().stream().map(PodRef::name).forEach(seen::add));
    plan.unschedulable().forEach(u -> seen.add(u.pod().name()));
    if (seen.size() != pods.size() || !byName.keySet().containsAll(seen) || Set.copyOf(seen).size() != seen.size()) {
      throw new IllegalStateException("the plan does not account for every pod exactly once: " + seen.size()
          + " entries for " + pods.size() + " pods");
    }
    int broken = 0;
    for (NodeClaimRequest claim : plan.claims()) {
      long anti = claim.pods().stream().map(p -> byName.get(p.name()))
          .filter(p -> p.constraint().kind() == BenchPod.Kind.ANTI_AFFINITY).count();
      if (anti > 1) {
        broken++;
      }
    }
    return broken;
  }
}
