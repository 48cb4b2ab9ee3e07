package dev.farrier.planner;

import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.ReplacementPlan;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decides where a batch of pending pods goes, as a pure function of a {@link ProvisioningSnapshot}, the way
 * Karpenter's provisioner simulates the kube-scheduler.
 *
 * <p>Pods are grouped by shape (replicas differ only by name) and placed biggest first (CPU, then memory, then
 * name). Each pod goes to the first of: an existing node or in-flight claim with room (ready nodes first), a claim
 * planned earlier in this batch that can still take it, or a new claim in the first NodePool (highest weight, then
 * name) that admits it. A target takes a pod when
 * <ul>
 *   <li>resources fit: requests (containers, the init-container max, overhead; extended resources such as GPUs)
 *       within the allocatable left, which for a new claim is the instance type's capacity less kubelet reserves
 *       ({@link KubeletReserve}, with the node class's {@link KubeletSettings}) and the DaemonSets that would run
 *       in the pool;</li>
 *   <li>labels match: nodeSelector, one required node affinity term, volume topology, and preferred node affinity
 *       terms (kept as requirements until relaxed);</li>
 *   <li>the pod tolerates the taints (NodePool taints; startup taints never block; transient taints of an in-flight
 *       claim are ignored);</li>
 *   <li>topology holds ({@link TopologyState}): spread skew (counting existing pods, minDomains), pod affinity and
 *       anti-affinity on hostname and zone-like keys, and other pods' required anti-affinity. A new claim is pinned
 *       to one domain of each key topology restricts, the emptiest of the spread first;</li>
 *   <li>for claims, some instance type meets all the requirements, has an available offering in an allowed zone and
 *       capacity type, meets minValues, and keeps the pool within its limits, counting the pool's current usage
 *       (including in-flight claims) and every claim of the batch at the largest capacity it lists.</li>
 * </ul>
 * A new claim is sized by price ({@link ClaimSizing}): of the types that hold its first pod, the one with the lowest
 * price per shadow-priced CPU and memory it would be filled with (the batch's waiting pods that could share it) caps
 * how much the claim takes, instead of the claim growing until only the largest type still holds it.
 * When no target takes a pod, its preferences (preferred pod and node affinity terms from the lowest weight, then
 * ScheduleAnyway spreads) are given up one at a time. Pods that still fit nowhere get a reason naming, per NodePool,
 * the constraint that excluded it. Pods whose placement depends on others (spread, pod affinity) are retried once
 * others are placed. Each claim lists up to 60 instance types, cheapest first.
 */
public final class ProvisioningPlanner {

  /**
   * The plan for one batch of pending pods: pods on existing capacity, new claims (named by {@code namer} from
   * {@code batchId} and their index in the plan) and pods that fit nowhere. A pod listed twice is planned once.
   */
  public ProvisioningPlan plan(ProvisioningSnapshot snapshot, String batchId, ClaimNamer namer) {
    return plan(snapshot, batchId, namer, TypeMemo.none());
  }

  /** As {@link #plan(ProvisioningSnapshot, String, ClaimNamer)}, sharing {@code memo} with other plans (a round's). */
  ProvisioningPlan plan(ProvisioningSnapshot snapshot, String batchId, ClaimNamer namer, TypeMemo memo) {
    return new Scheduler(withoutStaticPools(snapshot), memo).run(snapshot.pendingPods(), batchId, namer);
  }

  /**
   * The snapshot without static NodePools: as upstream's provisioner, pending pods never open a claim in one (its size is
   * its {@code replicas}, {@link StaticPools}); its nodes stay existing capacity pods may land on.
   */
  private static ProvisioningSnapshot withoutStaticPools(ProvisioningSnapshot snapshot) {
    if (snapshot.nodePools().stream().noneMatch(NodePoolView::isStatic)) {
      return snapshot;
    }
    return new ProvisioningSnapshot(snapshot.pendingPods(),
        snapshot.nodePools().stream().filter(p -> !p.isStatic()).toList(), snapshot.instanceTypesByNodePool(),
        snapshot.daemonSetPods(), snapshot.existingNodes(), snapshot.kubeletByNodePool());
  }

  /**
   * The zone a replacement is pinned to: the replaced node's, when one of its pods spreads over zones (a required
   * topology spread on the zone key) and its NodePool still allows that zone. Moved within the zone the spread stays as
   * it was; moved to another it can break, and the kube-scheduler then leaves the pod pending (a node launched for it
   * in the zone it needs, or the replacement left underutilized and replaced again, round after round). A NodePool
   * that no longer allows the zone (the drift may be that) leaves the replacement free.
   */
  static String pinnedZone(ReplacementSnapshot snapshot, List<PodSpecView> pods) {
    String zone = snapshot.zone();
    if (zone == null || pods.stream().noneMatch(ProvisioningPlanner::spreadsOverZones)) {
      return null;
    }
    boolean allowed = snapshot.nodePool().requirements().stream()
        .filter(r -> WellKnown.ZONE_LABEL.equals(r.key())).allMatch(r -> LabelConstraint.of(r).allows(zone));
    return allowed ? zone : null;
  }

  /** Whether the pod has a required topology spread over zones. */
  static boolean spreadsOverZones(PodSpecView pod) {
    return pod.topologySpread().stream().anyMatch(t -> t.doNotSchedule() && WellKnown.ZONE_LABEL.equals(t.topologyKey()));
  }

  /**
   * One claim for the reschedulable pods of a node, from the node's NodePool only. {@code replacement} is null with
   * {@code reschedulablePods == 0} when nothing needs a new home, and null with {@code reschedulablePods > 0} when
   * no claim can hold them (the description says why): the caller must not drain then. When the pods need more than
   * one claim, the first is returned and the description names the pods left to the provisioner.
   */
  public ReplacementPlan planReplacement(ReplacementSnapshot snapshot) {
    List<PodSpecView> reschedulable = snapshot.podsOnNode().stream().filter(PodSpecView::reschedulable).toList();
    if (snapshot.nodePool().isStatic()) {
      return staticReplacement(snapshot, reschedulable.size());
    }
    if (reschedulable.isEmpty()) {
      return new ReplacementPlan(null, 0, "no reschedulable pods on " + snapshot.nodeClaim() + ": nothing needs a new home");
    }
    NodePoolView pool = snapshot.nodePool();
    Resources usage = pool.usage().minus(snapshot.replacedCapacity());
    NodePoolView withoutReplaced = pool.withUsage(usage);
    String pinned = pinnedZone(snapshot, reschedulable);
    if (pinned != null) {
      withoutReplaced = withoutReplaced.withRequirement(new Requirement(WellKnown.ZONE_LABEL, "In", List.of(pinned), null));
    }
    ProvisioningSnapshot forNode = new ProvisioningSnapshot(reschedulable, List.of(withoutReplaced),
        Map.of(pool.name(), snapshot.instanceTypes()), snapshot.daemonSetPods(), List.of(), Map.of(pool.name(), snapshot.kubelet()));
    String name = snapshot.replacementName();
    // Not sized by price: one claim should take every pod the node had, so the node can be drained in one go.
    ProvisioningPlan plan = new Scheduler(forNode, false).run(forNode.pendingPods(), name, (p, b, i) -> i == 0 ? name : name + "-" + i);
    int count = reschedulable.size();
    if (plan.claims().isEmpty()) {
      return new ReplacementPlan(null, count, "no replacement for " + snapshot.nodeClaim() + " can hold its " + count
          + " reschedulable pods: " + plan.unschedulable().getFirst().reason());
    }
    NodeClaimRequest first = plan.claims().getFirst();
    List<String> leftOver = new ArrayList<>();
    plan.claims().stream().skip(1).forEach(c -> c.pods().forEach(p -> leftOver.add(p.key())));
    plan.unschedulable().forEach(u -> leftOver.add(u.pod().key()));
    String description = "replace " + snapshot.nodeClaim() + " with " + first.name() + " (" + first.instanceTypes().size()
        + " instance types from " + first.instanceTypes().getFirst() + (pinned == null ? "" : ", in " + pinned + " as its pods spread over zones")
        + ") for " + first.pods().size() + " of " + count + " reschedulable pods";
    if (!leftOver.isEmpty()) {
      description += "; " + leftOver.size() + " pods do not fit with them and are left to the provisioner: "
          + leftOver.stream().sorted().toList();
    }
    return new ReplacementPlan(first, count, description);
  }

  /**
   * A static NodePool's node is replaced one for one, whatever its pods (upstream's static drift): a claim from the
   * template ({@link StaticPools#replacement}), so the pool keeps its count.
   */
  private static ReplacementPlan staticReplacement(ReplacementSnapshot snapshot, int reschedulable) {
    NodeClaimRequest claim = StaticPools.replacement(snapshot);
    if (claim == null) {
      return new ReplacementPlan(null, reschedulable, "no replacement for " + snapshot.nodeClaim() + ": "
          + StaticPools.noReplacement(snapshot));
    }
    return new ReplacementPlan(claim, reschedulable, "replace " + snapshot.nodeClaim() + " of static NodePool "
        + snapshot.nodePool().name() + " with " + claim.name() + " (" + claim.instanceTypes().size() + " instance types from "
        + claim.instanceTypes().getFirst() + ", in " + zoneOf(claim) + ") to keep its " + snapshot.nodePool().replicas() + " nodes");
  }

  private static String zoneOf(NodeClaimRequest claim) {
    return claim.requirements().stream().filter(r -> WellKnown.ZONE_LABEL.equals(r.key())).findFirst()
        .map(r -> String.join(",", r.values())).orElse("any zone");
  }
}
