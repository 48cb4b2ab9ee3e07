package dev.farrier.planner;

import dev.farrier.model.Requirement;
import dev.farrier.model.Resources;
import dev.farrier.model.Toleration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pods of one batch not placed yet that could share a node (same node selector, node affinity, tolerations and
 * volume topology), counted per request vector, biggest first as the planner places them. {@link ClaimSizing}
 * packs them onto each candidate instance type to see how full it would get. Topology constraints are left out: the
 * count is an estimate for sizing a claim, never a promise that a pod fits (every join is still checked).
 */
final class RemainingPods {
  /** What makes two pods able to share a node as far as node labels and taints go. */
  record Compatibility(Map<String, String> nodeSelector, List<List<Requirement>> requiredTerms,
      List<Toleration> tolerations, List<Requirement> volumes, List<PreferredNodeTerm> preferred) {
    static Compatibility of(PodSpecView p) {
      return new Compatibility(p.nodeSelector(), p.requiredAffinityTerms(), p.tolerations(), p.volumeRequirements(),
          p.preferredAffinity());
    }
  }

  /** Above this many distinct requests in a class, they are counted on a grid ({@link #bucket}). */
  static final int MAX_EXACT_VECTORS = 64;

  /** Request vectors (exact, or rounded when there are many: {@link #bucket}), biggest first (CPU, then memory). */
  final List<Resources> requests;
  /** The smallest CPU and memory any vector asks for: a packing stops when less than that is left. */
  final long smallestCpu;
  final long smallestMemory;
  /** Pods left per request vector, same index. */
  final int[] counts;
  private final Map<Resources, Integer> index;
  private int left;
  /** Changes when the counts have moved enough that a packing estimate may differ. */
  private int version;
  private int leftAtVersion;

  /** Whether this class has so many distinct requests that they are counted on the grid ({@link #bucket}). */
  private final boolean rounded;

  private RemainingPods(List<Resources> requests, int[] counts, boolean rounded) {
    this.rounded = rounded;
    this.requests = requests;
    this.counts = counts;
    this.smallestCpu = requests.stream().mapToLong(Resources::milliCpu).min().orElse(0);
    this.smallestMemory = requests.stream().mapToLong(Resources::memoryBytes).min().orElse(0);
    this.index = new HashMap<>();
    for (int i = 0; i < requests.size(); i++) {
      index.put(requests.get(i), i);
      left += counts[i];
    }
    this.leftAtVersion = left;
  }

  /** One summary per compatibility class of the pods' shapes (each shape counted {@code replicas} times). */
  static Map<PodShape, RemainingPods> of(Map<PodShape, Integer> replicas) {
    Map<Compatibility, Map<Resources, Integer>> byClass = new HashMap<>();
    replicas.forEach((shape, n) -> byClass.computeIfAbsent(Compatibility.of(shape.spec), k -> new HashMap<>())
        .merge(shape.requests, n, Integer::sum));
    Map<Compatibility, RemainingPods> summaries = new HashMap<>();
    byClass.forEach((c, exact) -> {
      boolean round = exact.size() > MAX_EXACT_VECTORS;
      Map<Resources, Integer> counts = exact;
      if (round) {
        counts = new HashMap<>();
        for (var e : exact.entrySet()) {
          counts.merge(bucket(e.getKey()), e.getValue(), Integer::sum);
        }
      }
      List<Resources> sorted = new ArrayList<>(counts.keySet());
      sorted.sort(Comparator.comparingLong(Resources::milliCpu).reversed()
          .thenComparing(Comparator.comparingLong(Resources::memoryBytes).reversed())
          .thenComparing(Resources::toString));
      int[] n = new int[sorted.size()];
      for (int i = 0; i < n.length; i++) {
        n[i] = counts.get(sorted.get(i));
      }
      summaries.put(c, new RemainingPods(List.copyOf(sorted), n, round));
    });
    Map<PodShape, RemainingPods> out = new HashMap<>();
    replicas.keySet().forEach(s -> out.put(s, summaries.get(Compatibility.of(s.spec))));
    return out;
  }

  int indexOf(Resources podRequests) {
    return index.getOrDefault(asCounted(podRequests), -1);
  }

  /** The requests as this summary counts them: exact, or on the grid when the class has many distinct ones. */
  Resources asCounted(Resources podRequests) {
    return rounded ? bucket(podRequests) : podRequests;
  }

  /**
   * Requests rounded to the nearest step of a geometric grid (four steps per doubling, about 19% apart) in CPU and
   * memory, so a batch of pods that all differ (sized one by one, say) still has few vectors to pack; used only for
   * a class with more than {@link #MAX_EXACT_VECTORS} distinct requests (replicas, the common case, stay exact).
   */
  static Resources bucket(Resources r) {
    return new Resources(round(r.milliCpu()), round(r.memoryBytes()), r.ephemeralStorageBytes(), r.pods(), r.extended());
  }

  private static long round(long v) {
    if (v <= 16) {
      return v;
    }
    double step = Math.round(Math.log(v) / Math.log(2) * 4) / 4.0;
    return Math.round(Math.pow(2, step));
  }

  /** A pod of these requests was placed. */
  void placed(Resources podRequests) {
    int i = indexOf(podRequests);
    if (i < 0 || counts[i] == 0) {
      return;
    }
    counts[i]--;
    left--;
    // A vector running out changes packings outright; otherwise re-estimate after every 2% of the pods.
    if (counts[i] == 0 || leftAtVersion - left > Math.max(1, leftAtVersion / 50)) {
      version++;
      leftAtVersion = left;
    }
  }

  int version() {
    return version;
  }
}
