package dev.farrier.planner;

import dev.farrier.model.Resources;
import java.util.ArrayList;
import java.util.List;

/**
 * The spare capacity a NodePool keeps ready ({@code farrier.dev/headroom}), as placeholder pods of one size: either a
 * fixed count ({@code pods=4,cpu=1,memory=2Gi}) or a share of the pool's CPU ({@code cpu=10%}: as many placeholders of
 * {@link #PERCENT_POD_MILLI_CPU} as that share holds, rounded up, at most {@link #MAX_PODS}). The share is taken of the
 * pool's allocatable CPU less the placeholders' own requests, so the placeholders' nodes do not feed the share that
 * sized them: with at most {@link #MAX_CPU_PERCENT}% it settles.
 *
 * @param pods         the fixed count; null in the percent form
 * @param cpuPercent   the share of the pool's allocatable CPU, 1 to {@link #MAX_CPU_PERCENT}; null in the count form
 * @param podMilliCpu  each placeholder's CPU request
 * @param podMemoryBytes each placeholder's memory request (0: none)
 */
public record Headroom(Integer pods, Integer cpuPercent, long podMilliCpu, long podMemoryBytes) {
  /** The size of each placeholder in the percent form: one CPU. */
  public static final long PERCENT_POD_MILLI_CPU = 1000;
  /** At most this many placeholders per NodePool, in either form: a typo of a few zeros must not ask for a fleet. */
  public static final int MAX_PODS = 1000;
  /**
   * The largest share. The placeholders' nodes have room the placeholders leave unused (a 1-CPU placeholder may take a
   * node of 1.9 CPU); that slack counts in the pool's CPU, so the share grows by {@code percent x slack} per
   * placeholder and settles only while that is below 1.
   */
  public static final int MAX_CPU_PERCENT = 50;

  public Headroom {
    if ((pods == null) == (cpuPercent == null)) {
      throw new IllegalArgumentException("a headroom is a count of pods or a percent of the pool's CPU, not both");
    }
  }

  public static Headroom ofPods(int pods, long podMilliCpu, long podMemoryBytes) {
    return new Headroom(pods, null, podMilliCpu, podMemoryBytes);
  }

  public static Headroom ofCpuPercent(int percent) {
    return new Headroom(null, percent, PERCENT_POD_MILLI_CPU, 0);
  }

  /** One placeholder's requests in words: {@code cpu 1, memory 2Gi each}. */
  public String podSize() {
    List<String> parts = new ArrayList<>();
    if (podMilliCpu > 0) {
      parts.add("cpu " + Quantities.cpu(podMilliCpu));
    }
    if (podMemoryBytes > 0) {
      parts.add("memory " + Quantities.bytes(podMemoryBytes));
    }
    return String.join(", ", parts) + " each";
  }

  /**
   * How many placeholders to run and why fewer than wanted.
   *
   * @param wanted   what the headroom asks for
   * @param replicas what fits within the pool's limits (at most {@code wanted})
   * @param cappedBy the limits that hold it below {@code wanted}, in words; empty when none do
   */
  public record Replicas(int wanted, int replicas, String cappedBy) {
    public boolean capped() {
      return replicas < wanted;
    }
  }

  /**
   * The placeholders this headroom asks for in a pool whose nodes have {@code poolAllocatableMilliCpu} in all, of
   * which {@code placeholders} placeholders already take their requests.
   */
  public int wanted(long poolAllocatableMilliCpu, int placeholders) {
    if (pods != null) {
      return pods;
    }
    // ceil(percent% of the pool's CPU other than the placeholders' / one placeholder's CPU), in exact integer arithmetic.
    long base = Math.max(0, poolAllocatableMilliCpu - Math.multiplyExact((long) placeholders, podMilliCpu));
    long share = Math.multiplyExact(base, (long) cpuPercent);
    long perPod = Math.multiplyExact(podMilliCpu, 100L);
    return (int) Math.min(MAX_PODS, (share + perPod - 1) / perPod);
  }

  /**
   * The replicas within the pool's {@code limits}: the {@code running} placeholders (bound to the pool's nodes, so
   * inside its {@code usage}) plus as many more as the room the limits leave ({@code limit - usage}) holds, per
   * limited resource the placeholder requests; never fewer than {@code granted}, what an earlier pass gave under the
   * same limits and annotation. That floor matters: a node launched for pending placeholders is in the usage from its
   * launch, before they are bound to it, and without it the next pass would take those placeholders back, leaving the
   * node empty to be consolidated and launched again. Asking for a placeholder the limits then hold back is harmless:
   * the provisioner launches nothing past the limits, and it waits Pending.
   */
  public Replicas replicas(long poolAllocatableMilliCpu, NodePoolLimits limits, Resources usage, int running, int granted) {
    int wanted = wanted(poolAllocatableMilliCpu, running);
    int replicas = wanted;
    List<String> capped = new ArrayList<>();
    if (limits.milliCpu() != null && podMilliCpu > 0) {
      int fit = Math.max(granted, fit(running, limits.milliCpu() - usage.milliCpu(), podMilliCpu));
      if (fit < wanted) {
        capped.add("limits.cpu " + Quantities.cpu(limits.milliCpu()) + " (" + Quantities.cpu(usage.milliCpu()) + " in use)");
      }
      replicas = Math.min(replicas, fit);
    }
    if (limits.memoryBytes() != null && podMemoryBytes > 0) {
      int fit = Math.max(granted, fit(running, limits.memoryBytes() - usage.memoryBytes(), podMemoryBytes));
      if (fit < wanted) {
        capped.add("limits.memory " + Quantities.bytes(limits.memoryBytes()) + " (" + Quantities.bytes(usage.memoryBytes()) + " in use)");
      }
      replicas = Math.min(replicas, fit);
    }
    return new Replicas(wanted, Math.max(0, replicas), String.join(" and ", capped));
  }

  /**
   * The first of the pool's {@code limits} its {@code usage} has reached, in words ({@code limits.cpu 10 (10 in use)}),
   * or null: then the provisioner launches nothing more for the pool, whatever a placeholder requests (a memory-only
   * placeholder still needs a node with CPU).
   */
  public static String reachedLimit(NodePoolLimits limits, Resources usage) {
    if (limits.milliCpu() != null && usage.milliCpu() >= limits.milliCpu()) {
      return "limits.cpu " + Quantities.cpu(limits.milliCpu()) + " (" + Quantities.cpu(usage.milliCpu()) + " in use)";
    }
    if (limits.memoryBytes() != null && usage.memoryBytes() >= limits.memoryBytes()) {
      return "limits.memory " + Quantities.bytes(limits.memoryBytes()) + " (" + Quantities.bytes(usage.memoryBytes()) + " in use)";
    }
    if (limits.ephemeralStorageBytes() != null && usage.ephemeralStorageBytes() >= limits.ephemeralStorageBytes()) {
      return "limits.ephemeral-storage " + Quantities.bytes(limits.ephemeralStorageBytes()) + " ("
          + Quantities.bytes(usage.ephemeralStorageBytes()) + " in use)";
    }
    if (limits.pods() != null && usage.pods() >= limits.pods()) {
      return "limits.pods " + limits.pods() + " (" + usage.pods() + " in use)";
    }
    for (var e : new java.util.TreeMap<>(limits.extended()).entrySet()) {
      long used = usage.extended().getOrDefault(e.getKey(), 0L);
      if (used >= e.getValue()) {
        return "limits." + e.getKey() + " " + e.getValue() + " (" + used + " in use)";
      }
    }
    return null;
  }

  private static int fit(int running, long room, long perPod) {
    long more = Math.max(0, room) / perPod;
    return (int) Math.min(Integer.MAX_VALUE, running + more);
  }
}
