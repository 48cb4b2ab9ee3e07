package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.WindowsFamily;
import dev.farrier.activities.cloud.aws.EphemeralStorage;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/**
 * A simulated node's capacity and allocatable, computed as an EKS node reports them with Karpenter's defaults, so
 * the scheduler sees what it would on AWS:
 * <ul>
 *   <li>memory capacity = nominal MiB minus 7.5% (Karpenter's default {@code vmMemoryOverheadPercent}: the
 *       hypervisor keeps part of the memory), rounded up;</li>
 *   <li>pods = ENI max pods (110 on Windows, {@link WindowsFamily#DEFAULT_MAX_PODS}); ephemeral-storage = what the node's disk holds: 20 GiB (the default root volume), or the
 *       instance store of a node that made it its ephemeral storage ({@code instanceStorePolicy: RAID0});</li>
 *   <li>allocatable = capacity - EKS kube-reserved (cpu: 6% of the first core, 1% of the second, 0.5% of the third
 *       and fourth, 0.25% of the rest; memory: 11 MiB per pod + 255 MiB; ephemeral-storage 1 GiB) - eviction
 *       threshold (memory 100 MiB, ephemeral-storage 10%);</li>
 *   <li>{@code nvidia.com/gpu} = the GPU count of NVIDIA GPU types, in capacity and allocatable, as the NVIDIA device
 *       plugin reports it on an EKS GPU node.</li>
 * </ul>
 * Public for the side-by-side benchmark, which gives Karpenter's kwok provider the same allocatable per type.
 */
public final class NodeResources {
  static final double VM_MEMORY_OVERHEAD = 0.075;
  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;

  private NodeResources() {}

  static final String GPU_RESOURCE = "nvidia.com/gpu";

  static Map<String, Quantity> capacity(InstanceType type, long ephemeralStorageBytes, long pods) {
    return withGpus(type, Map.of(
        "cpu", new Quantity(Integer.toString(type.vcpu())),
        "memory", new Quantity(memoryCapacityMiB(type) + "Mi"),
        "pods", new Quantity(Long.toString(pods)),
        "ephemeral-storage", bytes(ephemeralStorageBytes)));
  }

  private static Map<String, Quantity> withGpus(InstanceType type, Map<String, Quantity> resources) {
    if (type.gpuCount() <= 0 || !"NVIDIA".equalsIgnoreCase(type.gpuManufacturer())) {
      return resources;
    }
    var all = new java.util.TreeMap<>(resources);
    all.put(GPU_RESOURCE, new Quantity(Integer.toString(type.gpuCount())));
    return Map.copyOf(all);
  }

  /** With the default 20 GiB root volume. */
  public static Map<String, Quantity> allocatable(InstanceType type) {
    return allocatable(type, EphemeralStorage.DEFAULT_BYTES, type.eniMaxPods());
  }

  /** @param pods the node's max pods: the ENI limit, or 110 on Windows */
  static Map<String, Quantity> allocatable(InstanceType type, long ephemeralStorageBytes, long pods) {
    long cpuMillis = type.vcpu() * 1000L - reservedCpuMillis(type.vcpu() * 1000L);
    long memoryMiB = memoryCapacityMiB(type) - (11 * pods + 255) - 100;
    long storage = ephemeralStorageBytes - GIB - (ephemeralStorageBytes + 9) / 10;
    return withGpus(type, Map.of(
        "cpu", new Quantity(cpuMillis + "m"),
        "memory", new Quantity(Math.max(0, memoryMiB) + "Mi"),
        "pods", new Quantity(Long.toString(pods)),
        "ephemeral-storage", bytes(Math.max(0, storage))));
  }

  /** In Gi or Mi when whole, as kubelet's own figures read; else in bytes (an instance store's decimal GB). */
  private static Quantity bytes(long bytes) {
    if (bytes % GIB == 0) {
      return new Quantity(bytes / GIB + "Gi");
    }
    return bytes % MIB == 0 ? new Quantity(bytes / MIB + "Mi") : new Quantity(Long.toString(bytes));
  }

  static long memoryCapacityMiB(InstanceType type) {
    return type.memoryMiB() - (long) Math.ceil(type.memoryMiB() * VM_MEMORY_OVERHEAD);
  }

  /** EKS's kube-reserved CPU in millicores for a node of {@code cpuMillis}. */
  static long reservedCpuMillis(long cpuMillis) {
    double[][] ranges = {{0, 1000, 0.06}, {1000, 2000, 0.01}, {2000, 4000, 0.005}, {4000, Double.MAX_VALUE, 0.0025}};
    double reserved = 0;
    for (double[] range : ranges) {
      if (cpuMillis > range[0]) {
        reserved += (Math.min(cpuMillis, range[1]) - range[0]) * range[2];
      }
    }
    return (long) Math.ceil(reserved);
  }
}
