package dev.farrier.activities.disruption;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.model.PlannedPods;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.NodeClaimView;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The nodes a planning round must leave alone because their pods already have a home being made ready: the other
 * claims of a multi-node consolidation while its replacement is launched, and nodes whose pods a nominated claim
 * was launched for ({@code ConsolidationView.promisedElsewhere}, read by the consolidation planners).
 */
final class PromisedElsewhere {
  private PromisedElsewhere() {}

  /**
   * Per node name, why its pods already have a home being made ready, so the other claims of a multi-node
   * consolidation wait for its replacement instead of being consolidated on their own meanwhile: the claim replaced for
   * its group ({@link WellKnown#CONSOLIDATED_WITH_ANNOTATION}) is being disrupted (unless that is the claim being
   * {@code rechecking}, whose group this is), or some of its pods are among those another claim was launched for
   * ({@link WellKnown#PLANNED_PODS_ANNOTATION}) while that claim still holds room for them (it is nominated: {@code views} carry
   * {@link PodEventTimes#nominated}). Nothing holds the claim being {@code rechecking} itself.
   */
  static Map<String, String> of(List<NodeClaimView> views, Map<String, NodeClaim> claims, Map<String, List<Pod>> podsByNode,
      String rechecking) {
    Map<String, NodeClaimView> byName = new HashMap<>();
    views.forEach(v -> byName.put(v.name(), v));
    Map<String, String> promisedTo = new HashMap<>();
    for (NodeClaimView v : views) {
      NodeClaim claim = claims.get(v.name());
      if (v.nominated() != null && claim != null) {
        PlannedPods.uids(claim.getMetadata().getAnnotations()).forEach(uid -> promisedTo.putIfAbsent(uid, v.name()));
      }
    }
    Map<String, String> held = new HashMap<>();
    for (NodeClaimView v : views) {
      // The claim being checked again is not held by its own disruption (its pods, on their way to the replacement
      // that was launched for them, make that claim nominated).
      if (v.nodeName() == null || v.name().equals(rechecking)) {
        continue;
      }
      NodeClaim claim = claims.get(v.name());
      String lead = claim == null || claim.getMetadata().getAnnotations() == null ? null
          : claim.getMetadata().getAnnotations().get(WellKnown.CONSOLIDATED_WITH_ANNOTATION);
      NodeClaimView leadView = lead == null ? null : byName.get(lead);
      if (leadView != null && leadView.beingDisrupted() && !lead.equals(rechecking)) {
        held.put(v.nodeName(), "consolidated with nodeclaim " + lead + ", whose replacement is being made ready for its pods");
        continue;
      }
      podsByNode.getOrDefault(v.nodeName(), List.of()).stream().map(p -> promisedTo.get(p.getMetadata().getUid()))
          .filter(to -> to != null && !to.equals(v.name())).sorted().findFirst()
          .ifPresent(to -> held.put(v.nodeName(), "its pods are promised to nodeclaim " + to + ", which holds room for them"));
    }
    return held;
  }
}
