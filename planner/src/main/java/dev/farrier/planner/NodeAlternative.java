package dev.farrier.planner;

import dev.farrier.model.Requirement;
import java.util.ArrayList;
import java.util.List;

/**
 * One way a pod's node constraints can be met: its nodeSelector, volume requirements and kept preferred node
 * affinity terms ANDed with one of its required node affinity terms (which Kubernetes ORs).
 *
 * @param label        how a reason names this alternative ({@code "(affinity term 2) "}), empty when there is one
 * @param invalid      why the alternative can never hold (an empty term), or null
 */
record NodeAlternative(String label, Requirements requirements, String invalid) {

  static List<NodeAlternative> of(PodSpecView pod, List<PreferredNodeTerm> keptPreferences) {
    Requirements common = Requirements.ofLabels(pod.nodeSelector(), "pod nodeSelector")
        .and(Requirements.of(pod.volumeRequirements(), "volume topology"));
    for (PreferredNodeTerm p : keptPreferences) {
      common = common.and(Requirements.of(p.requirements(), "preferred node affinity (weight " + p.weight() + ")"));
    }
    List<List<Requirement>> terms = pod.requiredAffinityTerms();
    if (terms.isEmpty()) {
      return List.of(new NodeAlternative("", common, null));
    }
    List<NodeAlternative> out = new ArrayList<>();
    for (int i = 0; i < terms.size(); i++) {
      String label = terms.size() == 1 ? "" : "(affinity term " + (i + 1) + ") ";
      List<Requirement> term = terms.get(i);
      String invalid = term.isEmpty() ? "an empty node affinity term matches no node" : null;
      out.add(new NodeAlternative(label, Requirements.of(term, "pod node affinity").and(common), invalid));
    }
    return out;
  }
}
