package dev.farrier.planner;

import java.util.Set;

/**
 * One pod affinity or anti-affinity term of a pod, required or preferred. Topology keys the planner places by:
 * hostname and zone (any other key is honoured on existing nodes that carry it; a new claim takes a pod with a
 * required term on another key only when the term is satisfiable without new domains).
 *
 * @param topologyKey   node label defining co-location ({@code kubernetes.io/hostname}, {@code topology.kubernetes.io/zone})
 * @param selector      which pods the term is about
 * @param namespaces    the namespaces those pods are looked for in; empty means the pending pod's own. The activity
 *                      resolves a {@code namespaceSelector} into this set
 * @param allNamespaces {@code namespaceSelector: {}}: every namespace
 * @param anti          anti-affinity (keep away from) instead of affinity (keep close to)
 * @param required      {@code requiredDuringScheduling...}; false for a preferred term, relaxed like a preference
 * @param weight        a preferred term's weight (1-100); ignored when required
 */
public record PodAffinityTerm(
    String topologyKey, PodSelector selector, Set<String> namespaces, boolean allNamespaces, boolean anti, boolean required,
    int weight) {
  public PodAffinityTerm {
    selector = selector == null ? PodSelector.NOTHING : selector;
    namespaces = namespaces == null ? Set.of() : Set.copyOf(namespaces);
  }

  /** Whether a pod in {@code namespace} with these labels is one this term (of a pod in {@code ownNamespace}) is about. */
  public boolean selects(String ownNamespace, String namespace, java.util.Map<String, String> labels) {
    boolean inScope = allNamespaces || (namespaces.isEmpty() ? ownNamespace.equals(namespace) : namespaces.contains(namespace));
    return inScope && selector.matches(labels);
  }
}
