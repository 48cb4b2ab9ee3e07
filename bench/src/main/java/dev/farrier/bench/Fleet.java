package dev.farrier.bench;

import dev.farrier.model.PodRef;
import dev.farrier.model.Resources;
import dev.farrier.planner.ExistingNodeView;
import dev.farrier.planner.PodSpecView;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** A simulated fleet: nodes by name, each with the pods bound to it. */
final class Fleet {
  private final Map<String, FleetNode> nodes = new TreeMap<>();
  private final Map<String, Integer> counters = new HashMap<>();

  /** A name not used yet, {@code prefix-00001} and up, so nodes sort in the order they were made. */
  String newName(String prefix) {
    int n = counters.merge(prefix, 1, Integer::sum);
    return String.format(Locale.ROOT, "%s-%05d", prefix, n);
  }

  void add(FleetNode node) {
    if (nodes.putIfAbsent(node.name(), node) != null) {
      throw new IllegalStateException("node " + node.name() + " exists already");
    }
  }

  FleetNode node(String name) {
    FleetNode node = nodes.get(name);
    if (node == null) {
      throw new IllegalStateException("no node " + name + " in the fleet");
    }
    return node;
  }

  FleetNode remove(String name) {
    FleetNode node = node(name);
    nodes.remove(name);
    return node;
  }

  void bind(String nodeName, List<PodSpecView> pods) {
    nodes.put(nodeName, node(nodeName).withPods(pods));
  }

  Collection<FleetNode> nodes() {
    return nodes.values();
  }

  int size() {
    return nodes.size();
  }

  List<ExistingNodeView> views() {
    return nodes.values().stream().map(FleetNode::view).toList();
  }

  double pricePerHour() {
    return nodes.values().stream().mapToDouble(FleetNode::pricePerHour).sum();
  }

  /** Node count per type and capacity type, most first: {@code 120 x m6g.xlarge on-demand, 3 x t4g.small spot}. */
  String composition() {
    Map<String, Long> counts = nodes.values().stream().collect(Collectors.groupingBy(
        n -> n.type().name() + " " + n.offering().capacityType(), TreeMap::new, Collectors.counting()));
    return counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .map(e -> e.getValue() + " x " + e.getKey()).collect(Collectors.joining(", "));
  }

  /**
   * Throws unless every pod of {@code workload} is bound to exactly one node, no other pod is, and every node's pods'
   * requests fit in its allocatable.
   */
  void verify(List<BenchPod> workload) {
    Set<String> expected = workload.stream().map(BenchPod::name).collect(Collectors.toSet());
    Set<String> seen = new HashSet<>();
    List<String> problems = new ArrayList<>();
    for (FleetNode node : nodes.values()) {
      Resources used = Resources.ZERO;
      for (PodSpecView pod : node.pods()) {
        String name = pod.pod().name();
        if (!seen.add(name)) {
          problems.add(name + " is bound twice");
        } else if (!expected.contains(name)) {
          problems.add(name + " is not a pod of the workload");
        }
        used = used.plus(pod.requests());
      }
      if (!used.fitsIn(node.view().allocatable())) {
        problems.add(node.name() + " holds " + used + ", more than its allocatable " + node.view().allocatable());
      }
    }
    expected.stream().filter(p -> !seen.contains(p)).sorted().limit(5).forEach(p -> problems.add(p + " is on no node"));
    if (!problems.isEmpty()) {
      throw new IllegalStateException("the fleet lost, duplicated or overpacked pods: " + problems.stream().limit(10).toList());
    }
  }

  /** The pods of {@code from} named by {@code refs}, in that order. */
  static List<PodSpecView> pick(List<PodSpecView> from, List<PodRef> refs) {
    Map<String, PodSpecView> byName = from.stream().collect(Collectors.toMap(p -> p.pod().name(), p -> p));
    return refs.stream().map(r -> {
      PodSpecView pod = byName.get(r.name());
      if (pod == null) {
        throw new IllegalStateException("plan names pod " + r.name() + ", which was not given to it");
      }
      return pod;
    }).toList();
  }
}
