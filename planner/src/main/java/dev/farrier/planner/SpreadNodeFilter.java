package dev.farrier.planner;

import dev.farrier.model.Requirement;
import dev.farrier.model.Taint;
import dev.farrier.model.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which nodes a topology spread constraint counts, from its {@code nodeAffinityPolicy} and {@code nodeTaintsPolicy}
 * (the kube-scheduler's PodTopologySpread): with Honor on affinity only nodes the pod's nodeSelector and required node
 * affinity accept, with Honor on taints only nodes whose taints it tolerates. Their pods count and their domains are
 * eligible; the rest are left out of the skew. Pod (anti-)affinity counts every node ({@link #ALL}).
 *
 * @param affinity    the pod's nodeSelector ANDed with each required node affinity term (ORed); null when the policy
 *                    is Ignore or the pod has neither
 * @param tolerations the pod's tolerations; null when the taints policy is Ignore
 */
record SpreadNodeFilter(List<Requirements> affinity, List<Toleration> tolerations) {
  static final SpreadNodeFilter ALL = new SpreadNodeFilter(null, null);

  static SpreadNodeFilter of(PodSpecView pod, TopologySpread constraint) {
    List<Requirements> terms = null;
    if (constraint.honorNodeAffinity() && (!pod.nodeSelector().isEmpty() || !pod.requiredAffinityTerms().isEmpty())) {
      Requirements selector = Requirements.ofLabels(pod.nodeSelector(), "pod nodeSelector");
      terms = new ArrayList<>();
      if (pod.requiredAffinityTerms().isEmpty()) {
        terms.add(selector);
      }
      for (List<Requirement> term : pod.requiredAffinityTerms()) {
        if (!term.isEmpty()) {
          terms.add(Requirements.of(term, "pod node affinity").and(selector));
        }
      }
    }
    if (terms == null && !constraint.honorNodeTaints()) {
      return ALL;
    }
    return new SpreadNodeFilter(terms == null ? null : List.copyOf(terms),
        constraint.honorNodeTaints() ? pod.tolerations() : null);
  }

  /** Whether a node with these labels and taints counts. */
  boolean counts(Map<String, String> labels, List<Taint> taints) {
    return (affinity == null || affinity.stream().anyMatch(r -> r.allowsOn(labels, k -> true)))
        && tolerates(taints);
  }

  /** Whether a claim being planned with these requirements, in a pool with these taints, counts. */
  boolean countsClaim(Requirements claim, List<Taint> taints) {
    return (affinity == null || affinity.stream().anyMatch(r -> claim.conflictWith(r) == null)) && tolerates(taints);
  }

  /** Whether a domain offered by nodes with one of these taint sets is eligible. */
  boolean tolerates(List<Taint> taints) {
    return tolerations == null || Tolerations.firstUntolerated(taints, tolerations) == null;
  }
}
