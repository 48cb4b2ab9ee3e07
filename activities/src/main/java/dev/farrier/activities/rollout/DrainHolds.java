package dev.farrier.activities.rollout;

import dev.farrier.activities.kube.LabelSelectors;
import dev.farrier.activities.views.PodViews;
import dev.farrier.model.RolloutPreview.PreviewHold;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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

  private final Map<String, List<PreviewHold>> byNode;

  private DrainHolds(Map<String, List<PreviewHold>> byNode) {
    this.byNode = byNode;
  }

  static DrainHolds of(List<Pod> boundPods, List<PodDisruptionBudget> pdbs) {
    Map<String, List<Pod>> podsByNode = boundPods.stream().filter(p -> !PodViews.terminal(p) && p.getSpec().getNodeName() != null)
        .collect(Collectors.groupingBy(p -> p.getSpec().getNodeName()));
    Map<String, List<PreviewHold>> byNode = new LinkedHashMap<>();
    podsByNode.forEach((node, pods) -> byNode.put(node, holds(pods, pdbs)));
    return new DrainHolds(byNode);
  }

  List<PreviewHold> on(String node) {
    return node == null ? List.of() : byNode.getOrDefault(node, List.of());
  }

  private static List<PreviewHold> holds(List<Pod> pods, List<PodDisruptionBudget> pdbs) {
    List<PreviewHold> holds = new ArrayList<>();
    for (Pod pod : pods) {
      var annotations = pod.getMetadata().getAnnotations();
      if (annotations != null && "true".equals(annotations.get(WellKnown.DO_NOT_DISRUPT_ANNOTATION))) {
        Long deadline = pod.getSpec().getActiveDeadlineSeconds();
        holds.add(new PreviewHold(DO_NOT_DISRUPT, name(pod), deadline != null
            ? "holds the node until the pod ends, at the latest " + deadline + "s after it started (activeDeadlineSeconds)"
            : "holds the node until the pod ends; nothing on it tells when"));
      }
    }
    for (PodDisruptionBudget pdb : pdbs) {
      if (pdb.getSpec() == null || pdb.getSpec().getSelector() == null || pdb.getStatus() == null) {
        continue;
      }
      long covered = pods.stream().filter(p -> p.getMetadata().getNamespace().equals(pdb.getMetadata().getNamespace())
          && LabelSelectors.matches(pdb.getSpec().getSelector(), p.getMetadata().getLabels() == null ? Map.of() : p.getMetadata().getLabels()))
          .count();
      Integer allowed = pdb.getStatus().getDisruptionsAllowed();
      if (covered == 0 || allowed == null || allowed >= covered) {
        continue;
      }
      String name = pdb.getMetadata().getNamespace() + "/" + pdb.getMetadata().getName();
      holds.add(new PreviewHold(PDB, name, allowed == 0
          ? "allows no eviction now (" + healthy(pdb) + "): holds the drain of its " + covered + " pod(s) until its pods' owners act"
              + " (more replicas Ready, or the budget changed)"
          : "allows " + allowed + " eviction(s) now for its " + covered + " pod(s) here: the rest go as the moved ones become Ready"));
    }
    return holds;
  }

  private static String healthy(PodDisruptionBudget pdb) {
    var s = pdb.getStatus();
    return s.getCurrentHealthy() + " healthy, " + s.getDesiredHealthy() + " desired";
  }

  private static String name(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }
}
