package dev.farrier.activities.disruption;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.model.PlannedPods;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.NodeClaimView;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The nodes a planning round must leave alone because their pods already have a home being made ready (the other
 * claims of a multi-node consolidation while its replacement is launched, and nodes whose pods a nominated claim was
 * launched for: {@code ConsolidationView.promisedElsewhere}), and the nodes whose home is ready: the rest of a multi-node
 * consolidation once its lead is replaced ({@code ConsolidationView.homes}), consolidated first.
 */
final class PromisedElsewhere {
  private PromisedElsewhere() {}

  /**
   * @param held  per node name, why it waits
   * @param homes per node name, the node of the initialized claim launched for its pods
   */
  record Promises(Map<String, String> held, Map<String, String> homes) {}

  /**
   * Per node name, why its pods already have a home being made ready, so the other claims of a multi-node
   * consolidation wait for its replacement instead of being consolidated on their own meanwhile: the claim replaced for
   * its group ({@link WellKnown#CONSOLIDATED_WITH_ANNOTATION}) is being disrupted (unless that is the claim being
   * {@code rechecking}, whose group this is), or some of its pods are among those another claim was launched for
   * ({@link WellKnown#PLANNED_PODS_ANNOTATION}) while that claim still holds room for them (it is nominated: {@code views} carry
   * {@link PodEventTimes#nominated}). Nothing holds the claim being {@code rechecking} itself. Once the group's lead is
   * no longer being disrupted, a claim of the group whose pods the initialized replacement was launched for has its home
   * there (the claim being rechecked too: its own deletion is weighed with that room).
   */
  static Promises of(List<NodeClaimView> views, Map<String, NodeClaim> claims, Map<String, List<Pod>> podsByNode,
      String rechecking) {
    Map<String, NodeClaimView> byName = new HashMap<>();
    views.forEach(v -> byName.put(v.name(), v));
    Map<String, String> promisedTo = new HashMap<>();
    Map<String, List<NodeClaimView>> plannedFor = new HashMap<>();
    for (NodeClaimView v : views) {
      NodeClaim claim = claims.get(v.name());
      if (claim != null) {
        for (String uid : PlannedPods.uids(claim.getMetadata().getAnnotations())) {
          plannedFor.computeIfAbsent(uid, k -> new ArrayList<>()).add(v);
          if (v.nominated() != null) {
            promisedTo.putIfAbsent(uid, v.name());
          }
        }
      }
    }
    Map<String, String> held = new HashMap<>();
    Map<String, String> homes = new HashMap<>();
    for (NodeClaimView v : views) {
      if (v.nodeName() == null) {
        continue;
      }
      List<Pod> pods = podsByNode.getOrDefault(v.nodeName(), List.of());
      NodeClaim claim = claims.get(v.name());
      String lead = claim == null || claim.getMetadata().getAnnotations() == null ? null
          : claim.getMetadata().getAnnotations().get(WellKnown.CONSOLIDATED_WITH_ANNOTATION);
      NodeClaimView leadView = lead == null ? null : byName.get(lead);
      boolean leadBusy = leadView != null && leadView.beingDisrupted();
      if (lead != null && !leadBusy) {
        Optional<NodeClaimView> home = home(pods, plannedFor, v);
        if (home.isPresent()) {
          homes.put(v.nodeName(), home.get().nodeName());
          continue;
        }
      }
      // The claim being checked again is not held by its own disruption (its pods, on their way to the replacement
      // that was launched for them, make that claim nominated).
      if (v.name().equals(rechecking)) {
        continue;
      }
      if (leadBusy && !lead.equals(rechecking)) {
        held.put(v.nodeName(), "consolidated with nodeclaim " + lead + ", whose replacement is being made ready for its pods");
        continue;
      }
      firstOf(pods, promisedTo, v)
          .ifPresent(to -> held.put(v.nodeName(), "its pods are promised to nodeclaim " + to + ", which holds room for them"));
    }
    return new Promises(held, homes);
  }

  /**
   * The ready claim launched last for some of these pods, other than their own: a claim lists the pods it was launched
   * for, so the group's own claim (launched for them at first) and older claims list them too.
   */
  private static Optional<NodeClaimView> home(List<Pod> pods, Map<String, List<NodeClaimView>> plannedFor, NodeClaimView self) {
    return pods.stream().flatMap(p -> plannedFor.getOrDefault(p.getMetadata().getUid(), List.of()).stream())
        .filter(c -> !c.name().equals(self.name()) && c.initialized() && c.nodeName() != null && !c.beingDisrupted())
        .max(Comparator.comparingLong(NodeClaimView::createdAtMillis).thenComparing(NodeClaimView::name));
  }

  /** The first (by name) other claim {@code promises} gives for one of these pods. */
  private static Optional<String> firstOf(List<Pod> pods, Map<String, String> promises, NodeClaimView self) {
    return pods.stream().map(p -> promises.get(p.getMetadata().getUid())).filter(to -> to != null && !to.equals(self.name()))
        .sorted().findFirst();
  }
}
