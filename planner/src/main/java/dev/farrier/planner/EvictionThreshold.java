package dev.farrier.planner;

/**
 * One kubelet eviction threshold of a signal ({@code memory.available} or {@code nodefs.available}): a quantity in
 * bytes, or a percentage of the resource's capacity, as the EC2NodeClass's {@code evictionHard} / {@code evictionSoft}
 * give it.
 */
public record EvictionThreshold(long bytes, double percent) {
  public static EvictionThreshold ofBytes(long bytes) {
    return new EvictionThreshold(bytes, 0);
  }

  public static EvictionThreshold ofPercent(double percent) {
    return new EvictionThreshold(0, percent);
  }

  /** The bytes held back on a resource of {@code capacity} bytes (a percentage rounded up, as Karpenter does). */
  long of(long capacity) {
    return percent > 0 ? (long) Math.ceil(capacity * percent / 100) : bytes;
  }
}
