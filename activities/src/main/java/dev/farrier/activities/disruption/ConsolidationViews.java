package dev.farrier.activities.disruption;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.kube.LabelSelectors;
import dev.farrier.activities.views.PodViews;
import dev.farrier.planner.ConsolidationView;
import dev.farrier.planner.ExistingNodeView;
import dev.farrier.model.GoDurations;
import dev.farrier.planner.InstanceTypeView;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.PodSpecView;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what consolidation of underutilized nodes needs beyond the disruption snapshot ({@link ConsolidationView}): the
 * PodDisruptionBudgets that allow no eviction now, and each node's disruption costs as Karpenter computes them: the one
 * that orders the candidates, and the one {@code Balanced} scores moves with.
 */
final class ConsolidationViews {
  /** The pod annotation the ReplicaSet controller reads to choose which pod to delete first. */
  static final String DELETION_COST_ANNOTATION = "controller.kubernetes.io/pod-deletion-cost";

  private ConsolidationViews() {}

  static ConsolidationView of(List<ExistingNodeView> nodes, Map<String, List<InstanceTypeView>> types, List<PodSpecView> daemonSets,
      Map<String, KubeletSettings> kubelets, Map<String, List<Pod>> podsByNode, List<PodDisruptionBudget> pdbs,
      Map<String, NodeClaim> claimsByNode, Instant now, boolean spotToSpot, PromisedElsewhere.Promises promises,
      List<PodSpecView> pendingPods) {
    Map<String, String> blocked = new HashMap<>();
    Map<String, Double> cost = new HashMap<>();
    Map<String, Double> moveCost = new HashMap<>();
    podsByNode.forEach((node, all) -> {
      // The pods that would move (read once: both the PDB check and the cost are about them only).
      List<Pod> pods = all.stream().filter(p -> !PodViews.terminal(p) && PodViews.of(p).reschedulable()).toList();
      String pdb = pdbBlocking(pods, pdbs);
      if (pdb != null) {
        blocked.put(node, pdb);
      }
      cost.put(node, disruptionCost(pods, claimsByNode.get(node), now));
      moveCost.put(node, moveCost(pods));
    });
    return new ConsolidationView(nodes, types, daemonSets, kubelets, blocked, cost, spotToSpot, promises.held(), pendingPods,
        promises.homes(), moveCost);
  }

  /**
   * Why a PodDisruptionBudget would refuse to evict one of these pods (those a consolidation moves) now: its
   * {@code status.disruptionsAllowed} is 0 and its selector matches the pod, in its namespace; null when none does.
   */
  static String pdbBlocking(List<Pod> pods, List<PodDisruptionBudget> pdbs) {
    for (Pod pod : pods) {
      for (PodDisruptionBudget pdb : pdbs) {
        if (!pdb.getMetadata().getNamespace().equals(pod.getMetadata().getNamespace()) || pdb.getStatus() == null
            || pdb.getStatus().getDisruptionsAllowed() == null || pdb.getStatus().getDisruptionsAllowed() > 0
            || pdb.getSpec() == null || pdb.getSpec().getSelector() == null) {
          continue;
        }
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        if (LabelSelectors.matches(pdb.getSpec().getSelector(), labels)) {
          return "PodDisruptionBudget " + pdb.getMetadata().getNamespace() + "/" + pdb.getMetadata().getName()
              + " allows no eviction of pod " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName() + " now";
        }
      }
    }
    return null;
  }

  /**
   * Karpenter's disruption cost of a node from the pods a consolidation moves: per pod 1, plus its {@value #DELETION_COST_ANNOTATION} over
   * 2^27 and its priority over 2^25, clamped to [-10, 10]; summed, then times the share of the node's lifetime left
   * before {@code expireAfter} (1 when it never expires). Cheaper nodes are consolidated first.
   */
  static double disruptionCost(List<Pod> pods, NodeClaim claim, Instant now) {
    double sum = 0;
    for (Pod pod : pods) {
      sum += evictionCost(pod);
    }
    return sum * lifetimeRemaining(claim, now);
  }

  /**
   * Karpenter v1.14's disruption cost of a node for {@code Balanced} scoring, from the pods a consolidation moves: 1 for
   * the node itself, plus each pod's eviction cost where positive (a pod that declares itself free to disrupt adds
   * nothing, never less). Not scaled by the lifetime left.
   */
  static double moveCost(List<Pod> pods) {
    double sum = 1.0;
    for (Pod pod : pods) {
      sum += Math.max(0, evictionCost(pod));
    }
    return sum;
  }

  /** One pod's eviction cost: 1, plus its deletion cost over 2^27 and its priority over 2^25, clamped to [-10, 10]. */
  private static double evictionCost(Pod pod) {
    double c = 1.0;
    String deletion = pod.getMetadata().getAnnotations() == null ? null : pod.getMetadata().getAnnotations().get(DELETION_COST_ANNOTATION);
    if (deletion != null) {
      try {
        c += Integer.parseInt(deletion.trim()) / Math.pow(2, 27);
      } catch (NumberFormatException e) {
        // The ReplicaSet controller ignores a cost it cannot read; so does this.
      }
    }
    if (pod.getSpec().getPriority() != null) {
      c += pod.getSpec().getPriority() / Math.pow(2, 25);
    }
    return Math.max(-10, Math.min(10, c));
  }

  private static double lifetimeRemaining(NodeClaim claim, Instant now) {
    if (claim == null || claim.getSpec() == null) {
      return 1.0;
    }
    Long expireAfter = GoDurations.toMillis(claim.getSpec().expireAfter());
    if (expireAfter == null || expireAfter <= 0) {
      return 1.0;
    }
    long age = now.toEpochMilli() - OffsetDateTime.parse(claim.getMetadata().getCreationTimestamp()).toInstant().toEpochMilli();
    return Math.max(0.0, Math.min(1.0, (expireAfter - age) / (double) expireAfter));
  }
}
