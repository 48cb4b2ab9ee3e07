package dev.farrier.activities.rollout;

import dev.farrier.activities.kube.LabelSelectors;
import dev.farrier.activities.views.PodViews;
import dev.farrier.model.RolloutPreview.PreviewHold;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What will hold a node's drain, read from the cluster now, and for how long as far as the cluster tells: a
 * PodDisruptionBudget over its pods that allows no eviction holds the drain until its pods' owners act (more replicas
 * Ready, the budget changed); one that allows fewer evictions than its pods on the node lets them go that many at a time,
 * each next one once a moved pod is Ready; a {@code karpenter.sh/do-not-disrupt} pod holds the node until it ends (by its
 * {@code activeDeadlineSeconds} at the latest, when it has one). The drain itself ({@code DrainRules}) decides; this only
 * foretells it.
 */
final class DrainHolds {
  static final String PDB = "PodDisruptionBudget";
  static final String DO_NOT_DISRUPT = "do-not-disrupt";

  private final Map<String, List<Pod>> podsByNode;
  private final List<PodDisruptionBudget> pdbs;

  private DrainHolds(Map<String, List<Pod>> podsByNode, List<PodDisruptionBudget> pdbs) {
    this.podsByNode = podsByNode;
    this.pdbs = pdbs;
  }

  static DrainHolds of(List<Pod> boundPods, List<PodDisruptionBudget> pdbs) {
    return new DrainHolds(boundPods.stream().filter(p -> !PodViews.terminal(p) && p.getSpec().getNodeName() != null)
        .collect(Collectors.groupingBy(p -> p.getSpec().getNodeName())), List.copyOf(pdbs));
  }

  /**
   * What holds the drain of {@code node} when it is drained together with {@code together} (its batch, itself
   * included): its do-not-disrupt pods, and the budgets over its pods that allow fewer evictions than their pods on
   * these nodes.
   */
  List<PreviewHold> on(String node, List<String> together) {
    if (node == null) {
      return List.of();
    }
    List<Pod> here = podsByNode.getOrDefault(node, List.of());
    List<Pod> batch = together.stream().filter(java.util.Objects::nonNull).distinct()
        .flatMap(n -> podsByNode.getOrDefault(n, List.of()).stream()).toList();
    List<PreviewHold> holds = new ArrayList<>();
    for (Pod pod : here) {
      var annotations = pod.getMetadata().getAnnotations();
      if (annotations != null && "true".equals(annotations.get(WellKnown.DO_NOT_DISRUPT_ANNOTATION))) {
        Long deadline = pod.getSpec().getActiveDeadlineSeconds();
        holds.add(new PreviewHold(DO_NOT_DISRUPT, name(pod), deadline != null
            ? "holds the node until the pod ends, at the latest " + deadline + "s after it started (activeDeadlineSeconds)"
            : "holds the node until the pod ends; nothing on it tells when"));
      }
    }
    for (PodDisruptionBudget pdb : pdbs) {
      if (pdb.getSpec() == null || pdb.getSpec().getSelector() == null || pdb.getStatus() == null
          || pdb.getStatus().getDisruptionsAllowed() == null || here.stream().noneMatch(p -> covers(pdb, p))) {
        continue;
      }
      long covered = batch.stream().filter(p -> covers(pdb, p)).count();
      int allowed = pdb.getStatus().getDisruptionsAllowed();
      if (allowed >= covered) {
        continue;
      }
      String name = pdb.getMetadata().getNamespace() + "/" + pdb.getMetadata().getName();
      holds.add(new PreviewHold(PDB, name, allowed == 0
          ? "allows no eviction now (" + healthy(pdb) + "): holds the drain until its pods' owners act"
              + " (more replicas Ready, or the budget changed)"
          : "allows " + allowed + " eviction(s) now for its " + covered + " pod(s) on "
              + (together.size() > 1 ? "this batch's nodes" : "this node") + ": the rest go as the moved ones become Ready"));
    }
    return holds;
  }

  private static boolean covers(PodDisruptionBudget pdb, Pod pod) {
    return pod.getMetadata().getNamespace().equals(pdb.getMetadata().getNamespace())
        && LabelSelectors.matches(pdb.getSpec().getSelector(), pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels());
  }

  private static String healthy(PodDisruptionBudget pdb) {
    var s = pdb.getStatus();
    return s.getCurrentHealthy() + " healthy, " + s.getDesiredHealthy() + " desired";
  }

  private static String name(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }
}
