package dev.farrier.activities.disruption;

import static dev.farrier.activities.disruption.NodeClaimViews.nodeName;

import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.kube.PodEvictor;
import dev.farrier.activities.nodeclass.NodeClassLaunches;
import dev.farrier.activities.provisioning.NodePoolViews;
import dev.farrier.activities.provisioning.PlanningInputs;
import dev.farrier.activities.views.PodViews;
import dev.farrier.activities.views.ResourceQuantities;
import dev.farrier.model.ReplacementPlan;
import dev.farrier.model.Resources;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.CheaperOfferings;
import dev.farrier.planner.PodSpecView;
import dev.farrier.planner.ProvisioningPlanner;
import dev.farrier.planner.ReplacementSnapshot;
import dev.farrier.workflows.activities.PlanReplacementRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code planReplacement}: the node a replacement launches for the pods of the claim it replaces (and of the other
 * claims of a multi-node consolidation), planned by the provisioning planner from the pods as they are now, under the
 * price ceiling the consolidation decided. Reads only.
 */
public final class ReplacementPlanning {
  private final ClusterReader reader;
  private final NodeClaimStore claims;
  private final PodEvictor pods;
  private final PlanningInputs inputs;
  private final ProvisioningPlanner provisioning = new ProvisioningPlanner();

  public ReplacementPlanning(ClusterReader reader, NodeClaimStore claims, PodEvictor pods, PlanningInputs inputs) {
    this.reader = reader;
    this.claims = claims;
    this.pods = pods;
    this.inputs = inputs;
  }

  public ReplacementPlan plan(PlanReplacementRequest request) {
    var claim = claims.getNodeClaim(request.nodeClaim()).orElse(null);
    if (claim == null) {
      return new ReplacementPlan(null, 0, "nodeclaim " + request.nodeClaim() + " is gone");
    }
    var poolName = claim.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL);
    var pool = reader.getNodePool(poolName).orElse(null);
    List<PodSpecView> pods = new ArrayList<>(podsOn(request.nodeName()));
    var replaced = capacity(claim);
    List<String> zones = new ArrayList<>();
    zones.add(zone(claim));
    // A multi-node consolidation: one node for the pods of every claim of the group.
    for (String other : request.consolidatedWith()) {
      var member = claims.getNodeClaim(other).orElse(null);
      if (member != null) {
        pods.addAll(podsOn(nodeName(member)));
        replaced = replaced.plus(capacity(member));
        zones.add(zone(member));
      }
    }
    int reschedulable = (int) pods.stream().filter(PodSpecView::reschedulable).count();
    if (pool == null) {
      return new ReplacementPlan(null, reschedulable, "nodepool " + poolName + " of nodeclaim " + request.nodeClaim() + " is gone");
    }
    var plannable = inputs.plannable(pool);
    if (plannable.isEmpty()) {
      return new ReplacementPlan(null, reschedulable, "nodepool " + poolName + " cannot be planned (see its ValidationSucceeded"
          + " condition)");
    }
    var allClaims = claims.listNodeClaims();
    var view = NodePoolViews.of(pool, allClaims);
    int poolNodes = (int) allClaims.stream()
        .filter(c -> poolName.equals(c.getMetadata().getLabels() == null ? null : c.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL)))
        .count();
    EC2NodeClass nodeClass = plannable.get().nodeClass();
    // A spot node consolidated under a price ceiling is replaced spot-to-spot: spot offerings only, then narrowed as decided.
    boolean spotToSpotReplacement = request.maxPricePerHour() != null
        && WellKnown.CAPACITY_SPOT.equals(claim.getMetadata().getLabels().get(WellKnown.CAPACITY_TYPE_LABEL));
    var catalog = inputs.catalog();
    var types = CheaperOfferings.below(inputs.overlays(catalog).apply(view, inputs.instanceTypes(catalog, nodeClass)),
        request.maxPricePerHour(), spotToSpotReplacement);
    var plan = provisioning.planReplacement(new ReplacementSnapshot(request.nodeClaim(), request.replacementName(), pods, view,
        types, inputs.daemonSetPods(), replaced, NodeClassLaunches.kubelet(nodeClass), ReplacementSnapshot.commonZone(zones),
        poolNodes));
    var restricted = CheaperOfferings.restrict(plan, types, request.maxPricePerHour());
    return spotToSpotReplacement ? CheaperOfferings.spotToSpot(restricted, types) : restricted;
  }

  /** The non-terminal pods on the node, read live (what its drain will move); none without a node. */
  private List<PodSpecView> podsOn(String nodeName) {
    return nodeName == null ? List.of()
        : pods.listPodsOnNode(nodeName).stream().filter(p -> !PodViews.terminal(p)).map(PodViews::of).toList();
  }

  private static String zone(NodeClaim claim) {
    return claim.getMetadata().getLabels() == null ? null : claim.getMetadata().getLabels().get(WellKnown.ZONE_LABEL);
  }

  private static Resources capacity(NodeClaim claim) {
    return claim.getStatus() == null ? Resources.ZERO : ResourceQuantities.fromQuantities(claim.getStatus().capacity());
  }
}
