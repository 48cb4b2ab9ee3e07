package dev.farrier.model;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A change freeze: while it stands, no voluntary disruption (drift, an opted-in rebalance) starts and no fleet upgrade
 * starts a batch, cluster-wide or in one NodePool. Replacements already running finish; expiry (forceful, as in
 * Karpenter v1, unless its NodePool asks for replace-first, which a freeze holds), deletion and interruptions are not
 * held.
 *
 * @param nodePool null for the whole cluster
 */
public record Freeze(String nodePool, String reason, String by, long sinceMillis) {
  /** The key of a cluster-wide freeze in {@link #byNodePool}. */
  public static final String CLUSTER_WIDE = "*";

  public Freeze {
    nodePool = CLUSTER_WIDE.equals(key(nodePool)) ? null : nodePool.strip();
  }

  public String scope() {
    return scope(nodePool);
  }

  /** "cluster-wide" or "nodepool NAME". */
  public static String scope(String nodePool) {
    String key = key(nodePool);
    return CLUSTER_WIDE.equals(key) ? "cluster-wide" : "nodepool " + key;
  }

  /** "frozen cluster-wide since 2026-11-24T10:00:00Z by alice: incident 4711". */
  public String describe() {
    return "frozen " + scope() + " since " + Instant.ofEpochMilli(sinceMillis) + (by == null || by.isBlank() ? "" : " by " + by)
        + ": " + reason;
  }

  /** The key a freeze of {@code nodePool} (null or blank: the cluster) is kept under. */
  public static String key(String nodePool) {
    return nodePool == null || nodePool.isBlank() ? CLUSTER_WIDE : nodePool.strip();
  }

  /** What the planner reads: each frozen NodePool (or {@link #CLUSTER_WIDE}) with the freeze's description. */
  public static Map<String, String> byNodePool(Collection<Freeze> freezes) {
    Map<String, String> frozen = new TreeMap<>();
    freezes.forEach(f -> frozen.put(key(f.nodePool()), f.describe()));
    return frozen;
  }

  /** Why {@code nodePool} is frozen (a cluster-wide freeze first), or null when it is not. */
  public static String of(Map<String, String> frozen, String nodePool) {
    String clusterWide = frozen.get(CLUSTER_WIDE);
    return clusterWide != null ? clusterWide : frozen.get(key(nodePool));
  }

  /** The freeze holding any of {@code nodePools} (a cluster-wide one first), or null. */
  public static String ofAny(Map<String, String> frozen, List<String> nodePools) {
    String clusterWide = frozen.get(CLUSTER_WIDE);
    return clusterWide != null ? clusterWide
        : nodePools.stream().map(p -> frozen.get(key(p))).filter(d -> d != null).findFirst().orElse(null);
  }
}
