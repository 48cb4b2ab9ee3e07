package dev.farrier.workflows.planner;

import dev.farrier.workflows.model.Resources;

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
 * Pods and extended resources (GPUs) are not reserved.
 */
final class KubeletReserve {
  private KubeletReserve() {}

  static final long MIB = 1L << 20;
  static final long GIB = 1L << 30;

  /** Ranges of millicores and the share of each reserved, in basis points (1/100 of a percent). */
  private static final long[][] CPU_STEPS = {{0, 1000, 600}, {1000, 2000, 100}, {2000, 4000, 50}, {4000, Long.MAX_VALUE, 25}};

  static Resources allocatable(Resources capacity) {
    Resources reserve = reserve(capacity);
    Resources raw = capacity.minus(reserve);
    return new Resources(Math.max(0, raw.milliCpu()), Math.max(0, raw.memoryBytes()),
        Math.max(0, raw.ephemeralStorageBytes()), capacity.pods(), capacity.extended());
  }

  static Resources reserve(Resources capacity) {
    long memoryMiB = capacity.memoryBytes() / MIB;
    long vmOverheadMiB = (memoryMiB * 75 + 999) / 1000;
    long kubeReservedMiB = 255 + 11 * capacity.pods();
    long evictionMiB = 100;
    long memory = (vmOverheadMiB + kubeReservedMiB + evictionMiB) * MIB;
    long storage = capacity.ephemeralStorageBytes() > 0
        ? GIB + (capacity.ephemeralStorageBytes() + 9) / 10
        : 0;
    return new Resources(cpuReserve(capacity.milliCpu()), memory, storage, 0, java.util.Map.of());
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
