package dev.farrier.planner;

import dev.farrier.model.Resources;

/**
 * What a node of a given capacity can give to pods: Karpenter's AWS defaults, which follow the EKS AMI's kubelet
 * configuration, so a claim the planner packs is one the kubelet will actually admit.
 *
 * <pre>
 * allocatable = capacity - vmOverhead - kubeReserved - evictionHard
 *   vmOverhead    memory: ceil(7.5% of memory, in whole MiB)          (hypervisor and firmware; Karpenter's
 *                                                                       VM_MEMORY_OVERHEAD_PERCENT default)
 *   kubeReserved  cpu:    6% of the 1st core + 1% of the 2nd + 0.5% of the 3rd and 4th + 0.25% of every further
 *                         core, rounded up to whole millicores
 *                 memory: 255 MiB + 11 MiB x maxPods
 *                 ephemeral-storage: 1 GiB
 *   evictionHard  memory.available: 100 MiB; nodefs.available: 10% of ephemeral storage
 * </pre>
 * Pods and extended resources (GPUs) are not reserved. An EC2NodeClass's {@link KubeletSettings} replace parts of
 * this: {@code maxPods} and {@code podsPerCore} cap the pod count (and so the memory kube-reserved grows with),
 * {@code kubeReserved} replaces the formula for each resource it sets, {@code systemReserved} is taken off as well,
 * the largest {@code memory.available} / {@code nodefs.available} of {@code evictionHard} and {@code evictionSoft}
 * replaces the 100 MiB / 10% (a percentage of the memory after the VM overhead, or of the disk), as Karpenter does.
 */
final class KubeletReserve {
  private KubeletReserve() {}

  static final long MIB = 1L << 20;
  static final long GIB = 1L << 30;

  /** Ranges of millicores and the share of each reserved, in basis points (1/100 of a percent). */
  private static final long[][] CPU_STEPS = {{0, 1000, 600}, {1000, 2000, 100}, {2000, 4000, 50}, {4000, Long.MAX_VALUE, 25}};

  static Resources allocatable(Resources capacity) {
    return allocatable(capacity, KubeletSettings.DEFAULTS);
  }

  static Resources allocatable(Resources capacity, KubeletSettings kubelet) {
    NodeKubelet node = nodeKubelet(capacity, kubelet);
    Resources reserve = reserve(capacity, node, kubelet);
    Resources raw = capacity.minus(reserve);
    return new Resources(Math.max(0, raw.milliCpu()), Math.max(0, raw.memoryBytes()),
        Math.max(0, raw.ephemeralStorageBytes()), node.maxPods(), capacity.extended());
  }

  /** The max pods and kube-reserved a node of {@code capacity} is told; the one place they are computed. */
  static NodeKubelet nodeKubelet(Resources capacity, KubeletSettings kubelet) {
    long pods = maxPods(capacity, kubelet);
    Resources kubeReserved = merged(new Resources(cpuReserve(capacity.milliCpu()), (255 + 11 * pods) * MIB,
        capacity.ephemeralStorageBytes() > 0 ? GIB : 0, 0, java.util.Map.of()), kubelet.kubeReserved());
    return new NodeKubelet(pods, kubeReserved);
  }

  /** The ENI-based max pods of the capacity, or the node class's {@code maxPods}, capped by {@code podsPerCore}. */
  static long maxPods(Resources capacity, KubeletSettings kubelet) {
    long pods = kubelet.maxPods() != null ? kubelet.maxPods() : capacity.pods();
    if (kubelet.podsPerCore() != null && kubelet.podsPerCore() > 0) {
      pods = Math.min(pods, kubelet.podsPerCore() * Math.max(1, capacity.milliCpu() / 1000));
    }
    return pods;
  }

  static Resources reserve(Resources capacity) {
    return reserve(capacity, nodeKubelet(capacity, KubeletSettings.DEFAULTS), KubeletSettings.DEFAULTS);
  }

  private static Resources reserve(Resources capacity, NodeKubelet node, KubeletSettings kubelet) {
    long memoryMiB = capacity.memoryBytes() / MIB;
    long vmOverhead = (memoryMiB * 75 + 999) / 1000 * MIB;
    long eviction = largest(kubelet.memoryEviction(), capacity.memoryBytes() - vmOverhead, 100 * MIB);
    Resources kubeReserved = node.kubeReserved();
    Resources system = kubelet.systemReserved() != null ? kubelet.systemReserved() : Resources.ZERO;
    long disk = capacity.ephemeralStorageBytes();
    long nodefs = disk > 0 ? largest(kubelet.nodefsEviction(), disk, (disk + 9) / 10) : 0;
    // Saturating sums: a node class reserving more than can be counted reserves everything, it never wraps to a gift.
    return new Resources(Resources.add(kubeReserved.milliCpu(), system.milliCpu()),
        Resources.add(Resources.add(vmOverhead, kubeReserved.memoryBytes()), Resources.add(system.memoryBytes(), eviction)),
        Resources.add(Resources.add(kubeReserved.ephemeralStorageBytes(), system.ephemeralStorageBytes()), nodefs), 0,
        java.util.Map.of());
  }

  /** The largest of the thresholds on a resource of {@code capacity} bytes, or {@code otherwise} when there are none. */
  private static long largest(java.util.List<EvictionThreshold> thresholds, long capacity, long otherwise) {
    return thresholds.stream().mapToLong(t -> t.of(capacity)).max().orElse(otherwise);
  }

  /**
   * The node class's {@code kubeReserved} over the default, resource by resource, as Karpenter merges them: setting
   * only cpu keeps the default memory reserve. A resource the setting leaves at zero keeps the default (an explicit
   * zero cannot be told from an absent key here; reserving the default is the side that never over-packs).
   */
  private static Resources merged(Resources defaults, Resources set) {
    if (set == null) {
      return defaults;
    }
    return new Resources(set.milliCpu() > 0 ? set.milliCpu() : defaults.milliCpu(),
        set.memoryBytes() > 0 ? set.memoryBytes() : defaults.memoryBytes(),
        set.ephemeralStorageBytes() > 0 ? set.ephemeralStorageBytes() : defaults.ephemeralStorageBytes(), 0, java.util.Map.of());
  }

  static long cpuReserve(long milliCpu) {
    long basisPointMillis = 0;
    for (long[] step : CPU_STEPS) {
      long overlap = Math.min(milliCpu, step[1]) - step[0];
      if (overlap > 0) {
        basisPointMillis += overlap * step[2];
      }
    }
    return (basisPointMillis + 9_999) / 10_000;
  }
}
