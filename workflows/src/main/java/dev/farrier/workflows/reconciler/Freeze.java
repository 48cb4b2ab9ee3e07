package dev.farrier.workflows.reconciler;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A change freeze: while it stands, no voluntary disruption (drift, an opted-in rebalance) starts and no fleet upgrade
 * starts a batch, cluster-wide or in one NodePool. Replacements already running finish; expiry (forceful, as in
 * Karpenter v1), deletion and interruptions are not held.
 *
 * @param nodePool null for the whole cluster
 */
public record Freeze(String nodePool, String reason, String by, long sinceMillis) {
  /** The key of a cluster-wide freeze in {@link #byNodePool}. */
  public static final String CLUSTER_WIDE = "*";

  public String scope() {
    return nodePool == null ? "cluster-wide" : "nodepool " + nodePool;
  }

  /** "frozen cluster-wide since 2026-11-24T10:00:00Z by alice: incident 4711". */
  public String describe() {
    return "frozen " + scope() + " since " + Instant.ofEpochMilli(sinceMillis) + (by == null || by.isBlank() ? "" : " by " + by)
        + ": " + reason;
  }

  /** What the planner reads: each frozen NodePool (or {@link #CLUSTER_WIDE}) with the freeze's description. */
  public static Map<String, String> byNodePool(Collection<Freeze> freezes) {
    Map<String, String> frozen = new TreeMap<>();
    freezes.forEach(f -> frozen.put(f.nodePool() == null ? CLUSTER_WIDE : f.nodePool(), f.describe()));
    return frozen;
  }

  /** Why {@code nodePool} is frozen (a cluster-wide freeze first), or null when it is not. */
  public static String of(Map<String, String> frozen, String nodePool) {
    if (frozen == null || frozen.isEmpty()) {
      return null;
    }
    return frozen.getOrDefault(CLUSTER_WIDE, frozen.get(nodePool));
  }

  /** The first freeze holding any of {@code nodePools}, or null. */
  public static String ofAny(Map<String, String> frozen, List<String> nodePools) {
    String clusterWide = of(frozen, null);
    return clusterWide != null ? clusterWide
        : nodePools.stream().map(p -> of(frozen, p)).filter(d -> d != null).findFirst().orElse(null);
  }
}
