package dev.farrier.activities.cloud;

/**
 * What EC2's DescribeInstanceTypes says about a type beyond its size, behind Karpenter's other
 * {@code karpenter.k8s.aws/instance-*} labels ({@link InstanceTypeLabels}). Each fact is null when EC2 gives none,
 * and a label is set only for a known fact, as upstream.
 *
 * @param hypervisor             {@code nitro} or {@code xen}; null on bare metal
 * @param cpuManufacturer        ProcessorInfo.Manufacturer as EC2 writes it ({@code Intel}, {@code AMD}, {@code AWS})
 * @param sustainedClockMhz      ProcessorInfo.SustainedClockSpeedInGhz in MHz
 * @param instanceStoreGb        InstanceStorageInfo.TotalSizeInGB, whatever the disks' kind
 * @param instanceStoreNvme      the instance store's disks are NVMe (NvmeSupport is not {@code unsupported})
 * @param networkBandwidthMbps   the network cards' baseline bandwidth, summed, in Mbit/s
 * @param ebsBandwidthMbps       EbsOptimizedInfo.MaximumBandwidthInMbps
 * @param gpuMemoryMib           the memory of one GPU
 * @param acceleratorName        the Neuron device (or older inference accelerator) name ({@code Inferentia2},
 *                               {@code Trainium})
 * @param encryptionInTransit    NetworkInfo.EncryptionInTransitSupported
 */
public record InstanceFacts(
    String hypervisor,
    String cpuManufacturer,
    Integer sustainedClockMhz,
    Integer instanceStoreGb,
    boolean instanceStoreNvme,
    Integer networkBandwidthMbps,
    Integer ebsBandwidthMbps,
    Integer gpuMemoryMib,
    String acceleratorName,
    String acceleratorManufacturer,
    Integer acceleratorCount,
    Boolean encryptionInTransit) {
  /** Nothing known beyond the type's size (a test's made-up type). */
  public static final InstanceFacts UNKNOWN = new InstanceFacts(null, null, null, null, false, null, null, null, null, null, null, null);

  public InstanceFacts {
    hypervisor = blankToNull(hypervisor);
    cpuManufacturer = blankToNull(cpuManufacturer);
    acceleratorName = blankToNull(acceleratorName);
    acceleratorManufacturer = blankToNull(acceleratorManufacturer);
  }

  /** Karpenter's {@code instance-local-nvme}: the instance store's size when its disks are NVMe, else null. */
  public Integer localNvmeGib() {
    return instanceStoreNvme ? instanceStoreGb : null;
  }

  /** These facts with another instance store. */
  public InstanceFacts withInstanceStore(Integer gb, boolean nvme) {
    return new InstanceFacts(hypervisor, cpuManufacturer, sustainedClockMhz, gb, nvme, networkBandwidthMbps, ebsBandwidthMbps, gpuMemoryMib,
        acceleratorName, acceleratorManufacturer, acceleratorCount, encryptionInTransit);
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
