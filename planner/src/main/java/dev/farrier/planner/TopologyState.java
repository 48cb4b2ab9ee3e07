package dev.farrier.planner;

import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Topology spread and pod (anti-)affinity bookkeeping for one plan: every group counts the matching pods per domain
 * (existing pods from the start, planned ones as they are placed), and {@link #narrow} turns a pod's constraints
 * into the domains it may go to now, the way the kube-scheduler would judge them once the planned pods are bound.
 */
final class TopologyState {
  private final Map<TopologyGroup.Key, TopologyGroup> forward = new LinkedHashMap<>();
  private final Map<TopologyGroup.Key, TopologyGroup> inverse = new LinkedHashMap<>();
  /**
   * Per topology key (not hostname), every domain a node can be in (existing nodes' values and what pools offer), each
   * with the taint sets of the nodes or pools offering it (for a spread whose nodeTaintsPolicy is Honor).
   */
  private final Map<String, Map<String, Set<List<Taint>>>> universe;

  TopologyState(Map<String, Map<String, Set<List<Taint>>>> universe) {
    this.universe = universe;
  }

  static TopologyGroup.Key keyOf(String ownNamespace, String topologyKey, PodSelector selector, Set<String> namespaces,
      boolean all) {
    return keyOf(ownNamespace, topologyKey, selector, namespaces, all, SpreadNodeFilter.ALL);
  }

  static TopologyGroup.Key keyOf(String ownNamespace, String topologyKey, PodSelector selector, Set<String> namespaces,
      boolean all, SpreadNodeFilter filter) {
    return new TopologyGroup.Key(topologyKey, selector, all ? Set.of() : namespaces.isEmpty() ? Set.of(ownNamespace) : namespaces, all,
        filter);
  }

  /** Registers the shape's own constraints (groups are shared between shapes that count the same pods). */
  void register(PodShape shape) {
    String ns = shape.namespace;
    for (TopologySpread c : shape.spec.topologySpread()) {
      TopologyGroup g = forward.computeIfAbsent(
          keyOf(ns, c.topologyKey(), c.selector(), Set.of(), false, SpreadNodeFilter.of(shape.spec, c)), TopologyGroup::new);
      shape.spreads.add(new PodShape.SpreadRule(c, g));
    }
    for (PodAffinityTerm t : shape.spec.podAffinity()) {
      TopologyGroup.Key key = keyOf(ns, t.topologyKey(), t.selector(), t.namespaces(), t.allNamespaces());
      TopologyGroup g = forward.computeIfAbsent(key, TopologyGroup::new);
      shape.affinities.add(new PodShape.AffinityRule(t, g, t.selects(ns, ns, shape.spec.labels())));
      if (t.anti() && t.required()) {
        shape.owns.add(inverse.computeIfAbsent(key, TopologyGroup::new));
      }
    }
  }

  /** Registers the required anti-affinity of a pod already bound, so pending pods it selects keep away from it. */
  void registerExisting(PodSpecView pod, TopologyPlace place) {
    for (PodAffinityTerm t : pod.podAffinity()) {
      if (t.anti() && t.required()) {
        TopologyGroup g = inverse.computeIfAbsent(
            keyOf(pod.pod().namespace(), t.topologyKey(), t.selector(), t.namespaces(), t.allNamespaces()), TopologyGroup::new);
        String domain = place.domain(t.topologyKey());
        if (domain != null) {
          g.add(domain);
        }
      }
    }
  }

  /** Once every group is known: which groups count or repel each shape. */
  void link(Collection<PodShape> shapes) {
    for (PodShape s : shapes) {
      for (TopologyGroup g : forward.values()) {
        if (g.selects(s.namespace, s.spec.labels())) {
          s.countedBy.add(g);
        }
      }
      for (TopologyGroup g : inverse.values()) {
        if (g.selects(s.namespace, s.spec.labels())) {
          s.repelledBy.add(g);
        }
      }
    }
  }

  /** Counts a bound pod for every group that selects it and counts its node. */
  void countExisting(PodSpecView pod, TopologyPlace place) {
    for (TopologyGroup g : forward.values()) {
      if (g.selects(pod.pod().namespace(), pod.labels()) && g.counts(place)) {
        String domain = place.domain(g.topologyKey());
        if (domain != null) {
          g.add(domain);
        }
      }
    }
  }

  boolean hasGroups() {
    return !forward.isEmpty() || !inverse.isEmpty();
  }

  /** Counts a planned pod where it went, for the keys {@code keys} accepts and whose domain is known. */
  void record(PodShape shape, TopologyPlace place, Predicate<String> keys) {
    for (TopologyGroup g : shape.countedBy) {
      addIfKnown(g, place, keys);
    }
    for (TopologyGroup g : shape.owns) {
      addIfKnown(g, place, keys);
    }
  }

  private static void addIfKnown(TopologyGroup g, TopologyPlace place, Predicate<String> keys) {
    if (keys.test(g.topologyKey()) && g.counts(place)) {
      String domain = place.domain(g.topologyKey());
      if (domain != null) {
        g.add(domain);
      }
    }
  }

  /** The topology keys (other than hostname) some group is about: where a claim's pinning changes counts. */
  Set<String> zoneLikeKeys() {
    Set<String> keys = new TreeSet<>();
    forward.keySet().forEach(k -> keys.add(k.topologyKey()));
    inverse.keySet().forEach(k -> keys.add(k.topologyKey()));
    keys.remove(WellKnown.HOSTNAME_LABEL);
    return keys;
  }

  /** What the pod's constraints at this relaxation level allow right now. */
  Narrowing narrow(PodShape shape, PodShape.Attempt attempt) {
    if (attempt.spreads.isEmpty() && attempt.affinities.isEmpty() && shape.repelledBy.isEmpty()) {
      return Narrowing.NONE;
    }
    Map<String, Set<String>> allowed = new TreeMap<>();
    Map<String, List<String>> sources = new TreeMap<>();
    Map<String, TopologyGroup> balanceBy = new HashMap<>();
    List<HostRule> hostRules = new ArrayList<>();
    for (PodShape.SpreadRule rule : attempt.spreads) {
      TopologySpread c = rule.constraint();
      String what = "topology spread on " + c.topologyKey() + " (maxSkew " + c.maxSkew()
          + (c.doNotSchedule() ? "" : ", ScheduleAnyway") + ")";
      if (c.topologyKey().equals(WellKnown.HOSTNAME_LABEL)) {
        hostRules.add(new HostRule(HostRule.Kind.SPREAD, rule.group(), c.maxSkew(), false, what));
        continue;
      }
      Set<String> eligible = new TreeSet<>();
      SpreadNodeFilter filter = rule.group().filter();
      for (String d : domains(c.topologyKey(), filter)) {
        if (!c.honorNodeAffinity()
            || attempt.alternatives.stream().anyMatch(a -> a.invalid() == null && a.requirements().get(c.topologyKey()).allows(d))) {
          eligible.add(d);
        }
      }
      int min = Integer.MAX_VALUE;
      for (String d : eligible) {
        min = Math.min(min, rule.group().count(d));
      }
      if (eligible.isEmpty() || (c.minDomains() != null && eligible.size() < c.minDomains())) {
        min = 0;
      }
      Set<String> ok = new TreeSet<>();
      for (String d : eligible) {
        if (rule.group().count(d) + 1 - min <= c.maxSkew()) {
          ok.add(d);
        }
      }
      restrict(allowed, sources, c.topologyKey(), ok, what);
      balanceBy.putIfAbsent(c.topologyKey(), rule.group());
    }
    for (PodShape.AffinityRule rule : attempt.affinities) {
      PodAffinityTerm t = rule.term();
      String what = "pod " + (t.anti() ? "anti-affinity" : "affinity") + " on " + t.topologyKey()
          + (t.required() ? "" : " (preferred, weight " + t.weight() + ")");
      if (t.topologyKey().equals(WellKnown.HOSTNAME_LABEL)) {
        hostRules.add(new HostRule(t.anti() ? HostRule.Kind.ANTI_AFFINITY : HostRule.Kind.AFFINITY, rule.group(), 0,
            rule.selfSelecting(), what));
        continue;
      }
      Set<String> ok = new TreeSet<>();
      if (t.anti()) {
        ok.addAll(domains(t.topologyKey()));
        ok.removeAll(rule.group().domainsWithPods());
      } else {
        for (String d : rule.group().domainsWithPods()) {
          if (rule.group().count(d) > 0) {
            ok.add(d);
          }
        }
        if (ok.isEmpty() && rule.group().total() == 0 && rule.selfSelecting()) {
          ok.addAll(domains(t.topologyKey()));
        }
      }
      restrict(allowed, sources, t.topologyKey(), ok, what);
    }
    for (TopologyGroup g : shape.repelledBy) {
      String what = "another pod's required anti-affinity on " + g.topologyKey();
      if (g.topologyKey().equals(WellKnown.HOSTNAME_LABEL)) {
        hostRules.add(new HostRule(HostRule.Kind.INVERSE, g, 0, false, what));
        continue;
      }
      if (g.total() == 0) {
        continue;
      }
      Set<String> ok = new TreeSet<>(domains(g.topologyKey()));
      ok.removeAll(g.domainsWithPods());
      restrict(allowed, sources, g.topologyKey(), ok, what);
    }
    String failure = null;
    Requirements requirements = Requirements.NONE;
    for (var e : allowed.entrySet()) {
      String source = String.join(" and ", sources.get(e.getKey()));
      if (e.getValue().isEmpty() && failure == null) {
        failure = source + " leaves no " + e.getKey() + " (known: " + domains(e.getKey()) + ")";
      }
      requirements = requirements.and(e.getKey(), new LabelConstraint(e.getValue(), Set.of(), true, false, null, null, null),
          source + " allows " + e.getKey() + " " + e.getValue());
    }
    return new Narrowing(allowed, balanceBy, requirements, List.copyOf(hostRules), failure);
  }

  private static void restrict(Map<String, Set<String>> allowed, Map<String, List<String>> sources, String key, Set<String> ok,
      String what) {
    allowed.merge(key, ok, (a, b) -> {
      Set<String> both = new TreeSet<>(a);
      both.retainAll(b);
      return both;
    });
    sources.computeIfAbsent(key, k -> new ArrayList<>()).add(what);
  }

  private Set<String> domains(String key) {
    return universe.getOrDefault(key, Map.of()).keySet();
  }

  /** The domains of {@code key} some node or pool the filter counts offers (its taints tolerated, under Honor). */
  private Set<String> domains(String key, SpreadNodeFilter filter) {
    Set<String> out = new TreeSet<>();
    universe.getOrDefault(key, Map.of()).forEach((domain, taintSets) -> {
      if (taintSets.stream().anyMatch(filter::tolerates)) {
        out.add(domain);
      }
    });
    return out;
  }
}
