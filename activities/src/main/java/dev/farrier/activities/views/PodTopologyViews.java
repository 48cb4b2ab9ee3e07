package dev.farrier.activities.views;

import dev.farrier.model.Requirement;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.PodAffinityTerm;
import dev.farrier.planner.PodSelector;
import dev.farrier.planner.PreferredNodeTerm;
import dev.farrier.planner.TopologySpread;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Reads a pod spec's preferred node affinity, topology spread constraints and pod (anti-)affinity for the scheduler. */
final class PodTopologyViews {
  private PodTopologyViews() {}

  static List<PreferredNodeTerm> preferredNodeAffinity(PodSpec spec) {
    var affinity = spec.getAffinity();
    if (affinity == null || affinity.getNodeAffinity() == null
        || affinity.getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution() == null) {
      return List.of();
    }
    List<PreferredNodeTerm> out = new ArrayList<>();
    for (var term : affinity.getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution()) {
      var expressions = term.getPreference() == null || term.getPreference().getMatchExpressions() == null
          ? List.<io.fabric8.kubernetes.api.model.NodeSelectorRequirement>of() : term.getPreference().getMatchExpressions();
      out.add(new PreferredNodeTerm(term.getWeight() == null ? 1 : term.getWeight(),
          expressions.stream().map(r -> new Requirement(r.getKey(), r.getOperator(), r.getValues(), null)).toList()));
    }
    return out;
  }

  /** Spread constraints; {@code matchLabelKeys} are folded into the selector with the pod's own values. */
  static List<TopologySpread> topologySpread(PodSpec spec, Map<String, String> podLabels) {
    if (spec.getTopologySpreadConstraints() == null) {
      return List.of();
    }
    List<TopologySpread> out = new ArrayList<>();
    for (var c : spec.getTopologySpreadConstraints()) {
      PodSelector selector = selector(c.getLabelSelector());
      if (c.getMatchLabelKeys() != null && !c.getMatchLabelKeys().isEmpty() && !selector.matchesNothing()) {
        Map<String, String> labels = new TreeMap<>(selector.matchLabels());
        for (String key : c.getMatchLabelKeys()) {
          if (podLabels.containsKey(key)) {
            labels.put(key, podLabels.get(key));
          }
        }
        selector = PodSelector.of(labels, selector.matchExpressions());
      }
      // The kube-scheduler's defaults: nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore.
      out.add(new TopologySpread(c.getTopologyKey(), c.getMaxSkew() == null ? 1 : c.getMaxSkew(),
          !"ScheduleAnyway".equals(c.getWhenUnsatisfiable()), c.getMinDomains(), selector,
          !"Ignore".equals(c.getNodeAffinityPolicy()), "Honor".equals(c.getNodeTaintsPolicy())));
    }
    return out;
  }

  static List<PodAffinityTerm> podAffinity(PodSpec spec, String namespace, NamespaceSelectors namespaces) {
    var affinity = spec.getAffinity();
    if (affinity == null) {
      return List.of();
    }
    List<PodAffinityTerm> out = new ArrayList<>();
    if (affinity.getPodAffinity() != null) {
      add(out, affinity.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
          affinity.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(), false, namespace, namespaces);
    }
    if (affinity.getPodAntiAffinity() != null) {
      add(out, affinity.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
          affinity.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(), true, namespace, namespaces);
    }
    return out;
  }

  private static void add(List<PodAffinityTerm> out, List<io.fabric8.kubernetes.api.model.PodAffinityTerm> required,
      List<io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm> preferred, boolean anti, String namespace,
      NamespaceSelectors namespaces) {
    if (required != null) {
      required.forEach(t -> out.add(term(t, anti, true, 0, namespace, namespaces)));
    }
    if (preferred != null) {
      preferred.stream().filter(w -> w.getPodAffinityTerm() != null).forEach(w ->
          out.add(term(w.getPodAffinityTerm(), anti, false, w.getWeight() == null ? 1 : w.getWeight(), namespace, namespaces)));
    }
  }

  private static PodAffinityTerm term(io.fabric8.kubernetes.api.model.PodAffinityTerm t, boolean anti, boolean required,
      int weight, String namespace, NamespaceSelectors namespaces) {
    Set<String> names = new java.util.TreeSet<>(t.getNamespaces() == null ? List.of() : t.getNamespaces());
    boolean all = false;
    LabelSelector nsSelector = t.getNamespaceSelector();
    if (nsSelector != null) {
      boolean empty = (nsSelector.getMatchLabels() == null || nsSelector.getMatchLabels().isEmpty())
          && (nsSelector.getMatchExpressions() == null || nsSelector.getMatchExpressions().isEmpty());
      if (empty) {
        all = true;
      } else {
        Set<String> matched = namespaces.matching(nsSelector);
        if (matched != null) {
          names.addAll(matched);
          if (names.isEmpty()) {
            // A selector that matches no namespace, with no names listed, selects no pod at all.
            return new PodAffinityTerm(topologyKey(t), PodSelector.NOTHING, Set.of(namespace), false, anti, required, weight);
          }
        }
      }
    }
    return new PodAffinityTerm(topologyKey(t), selector(t.getLabelSelector()), names, all, anti, required, weight);
  }

  private static String topologyKey(io.fabric8.kubernetes.api.model.PodAffinityTerm t) {
    return t.getTopologyKey() == null ? WellKnown.HOSTNAME_LABEL : t.getTopologyKey();
  }

  /** A Kubernetes label selector; null is Kubernetes' nil selector, which matches nothing. */
  static PodSelector selector(LabelSelector s) {
    if (s == null) {
      return PodSelector.NOTHING;
    }
    List<Requirement> expressions = s.getMatchExpressions() == null ? List.of()
        : s.getMatchExpressions().stream().map(e -> new Requirement(e.getKey(), e.getOperator(), e.getValues(), null)).toList();
    return PodSelector.of(s.getMatchLabels(), expressions);
  }
}
