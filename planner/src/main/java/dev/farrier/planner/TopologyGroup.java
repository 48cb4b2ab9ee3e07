package dev.farrier.planner;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The pods one selector picks out, counted per domain of one topology key: for a spread constraint or an affinity
 * term (the pods it counts), or, as an inverse group, the owners of a required anti-affinity term (the domains those
 * owners keep other pods out of). Domains are node label values; for {@code kubernetes.io/hostname}, node names (a
 * planned claim has its own placeholder name).
 */
final class TopologyGroup {
  /** What makes two constraints count the same pods the same way. */
  record Key(String topologyKey, PodSelector selector, Set<String> namespaces, boolean allNamespaces, SpreadNodeFilter filter) {}

  final Key id;
  private final Map<String, Integer> counts = new HashMap<>();
  private int total;

  TopologyGroup(Key id) {
    this.id = id;
  }

  String topologyKey() {
    return id.topologyKey();
  }

  /** Whether a pod in {@code namespace} with these labels is one this group counts. */
  boolean selects(String namespace, Map<String, String> labels) {
    return (id.allNamespaces() || id.namespaces().contains(namespace)) && id.selector().matches(labels);
  }

  /** Whether pods at {@code place} count for this group (a spread's node policies may leave the place out). */
  boolean counts(TopologyPlace place) {
    return id.filter() == SpreadNodeFilter.ALL || place.countedBy(id.filter());
  }

  /** Which nodes count (their pods and domains). */
  SpreadNodeFilter filter() {
    return id.filter();
  }

  int count(String domain) {
    Integer c = counts.get(domain);
    return c == null ? 0 : c;
  }

  int total() {
    return total;
  }

  void add(String domain) {
    counts.merge(domain, 1, Integer::sum);
    total++;
  }

  Set<String> domainsWithPods() {
    return counts.keySet();
  }

  String describe() {
    return id.topologyKey();
  }
}
