package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.WindowsFamily;
import dev.farrier.activities.cloud.aws.EphemeralStorage;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import java.util.TreeMap;

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
 *   <li>the devices ({@code nvidia.com/gpu}, {@code amd.com/gpu}, {@code aws.amazon.com/neuron}) in capacity and
 *       allocatable, as the device plugins report them on an EKS node, but only once they run: the simulated kubelet
 *       adds them a while after registration ({@link #devices}).</li>
 * </ul>
 * Public for the side-by-side benchmark, which gives Karpenter's kwok provider the same allocatable per type.
 */
public final class NodeResources {
  static final double VM_MEMORY_OVERHEAD = 0.075;
  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;

  private NodeResources() {}

  /**
   * What the kubelet reports before any device plugin runs: no GPUs or Neuron devices yet ({@link #devices}).
   *
   * @param pods the node's max pods: the ENI limit, or 110 on Windows
   */
  static Map<String, Quantity> capacity(InstanceType type, long ephemeralStorageBytes, long pods) {
    return Map.of(
        "cpu", new Quantity(Integer.toString(type.vcpu())),
        "memory", new Quantity(memoryCapacityMiB(type) + "Mi"),
        "pods", new Quantity(Long.toString(pods)),
        "ephemeral-storage", bytes(ephemeralStorageBytes));
  }

  /**
   * The devices the type's device plugins report once they run ({@link InstanceType#extendedResources}), in capacity
   * and allocatable alike.
   */
  static Map<String, Quantity> devices(InstanceType type) {
    var devices = new TreeMap<String, Quantity>();
    type.extendedResources().forEach((name, count) -> devices.put(name, new Quantity(Long.toString(count))));
    return devices;
  }

  /** With the default 20 GiB root volume and its devices reported: a settled node of the type. */
  public static Map<String, Quantity> allocatable(InstanceType type) {
    var all = new TreeMap<>(allocatable(type, EphemeralStorage.DEFAULT_BYTES, type.eniMaxPods()));
    all.putAll(devices(type));
    return Map.copyOf(all);
  }

  /** Before any device plugin runs; {@code pods} as for {@link #capacity}. */
  static Map<String, Quantity> allocatable(InstanceType type, long ephemeralStorageBytes, long pods) {
    long cpuMillis = type.vcpu() * 1000L - reservedCpuMillis(type.vcpu() * 1000L);
    long memoryMiB = memoryCapacityMiB(type) - (11 * pods + 255) - 100;
    long storage = ephemeralStorageBytes - GIB - (ephemeralStorageBytes + 9) / 10;
    return Map.of(
        "cpu", new Quantity(cpuMillis + "m"),
        "memory", new Quantity(Math.max(0, memoryMiB) + "Mi"),
        "pods", new Quantity(Long.toString(pods)),
        "ephemeral-storage", bytes(Math.max(0, storage)));
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
