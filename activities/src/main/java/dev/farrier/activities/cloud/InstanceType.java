package dev.farrier.activities.cloud;

import dev.farrier.model.Resources;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An instance type with its offerings. {@code arch} is x86_64 or arm64 (EC2's words); {@code facts} are the rest of
 * what EC2 says about it that Karpenter's labels carry ({@link InstanceTypeLabels}).
 */
public record InstanceType(
    String name,
    String arch,
    int vcpu,
    long memoryMiB,
    int gpuCount,
    String gpuManufacturer,
    String gpuName,
    int maxEnis,
    int ipv4PerEni,
    boolean bareMetal,
    List<Offering> offerings,
    InstanceFacts facts) {
  public InstanceType {
    offerings = List.copyOf(offerings);
    facts = facts == null ? InstanceFacts.UNKNOWN : facts;
  }

  /** A type with no facts beyond its size (a test's made-up type). */
  public InstanceType(String name, String arch, int vcpu, long memoryMiB, int gpuCount, String gpuManufacturer, String gpuName,
      int maxEnis, int ipv4PerEni, boolean bareMetal, List<Offering> offerings) {
    this(name, arch, vcpu, memoryMiB, gpuCount, gpuManufacturer, gpuName, maxEnis, ipv4PerEni, bareMetal, offerings, InstanceFacts.UNKNOWN);
  }

  /**
   * A type whose only fact beyond its size is its instance store (a test's made-up type).
   *
   * @param instanceStoreGb the total size of its instance-store disks in GB; 0 when it has none
   */
  public InstanceType(String name, String arch, int vcpu, long memoryMiB, int gpuCount, String gpuManufacturer, String gpuName,
      int maxEnis, int ipv4PerEni, boolean bareMetal, long instanceStoreGb, List<Offering> offerings) {
    this(name, arch, vcpu, memoryMiB, gpuCount, gpuManufacturer, gpuName, maxEnis, ipv4PerEni, bareMetal, offerings,
        InstanceFacts.UNKNOWN.withInstanceStore(instanceStoreGb == 0 ? null : (int) instanceStoreGb, false));
  }

  /**
   * The total size of its instance-store disks in GB (10^9 bytes, EC2's {@code InstanceStorageInfo.TotalSizeInGB},
   * whatever the disks' kind); 0 when it has none. What {@code instanceStorePolicy: RAID0} offers as ephemeral storage.
   */
  public long instanceStoreGb() {
    return facts.instanceStoreGb() == null ? 0 : facts.instanceStoreGb();
  }

  /** The same type with other offerings (their availability now). */
  public InstanceType withOfferings(List<Offering> newOfferings) {
    return new InstanceType(name, arch, vcpu, memoryMiB, gpuCount, gpuManufacturer, gpuName, maxEnis, ipv4PerEni, bareMetal, newOfferings,
        facts);
  }

  /** The Kubernetes arch label value (amd64, arm64). */
  public String kubernetesArch() {
    return "x86_64".equals(arch) ? "amd64" : arch;
  }

  /** The NVIDIA device plugin's resource name, which a node of an NVIDIA GPU type reports its GPUs as. */
  public static final String GPU_RESOURCE = "nvidia.com/gpu";
  /** The AMD device plugin's resource name. */
  public static final String AMD_GPU_RESOURCE = "amd.com/gpu";
  /** The Neuron device plugin's resource name, one per Inferentia or Trainium device. */
  public static final String NEURON_RESOURCE = "aws.amazon.com/neuron";

  /**
   * The devices a node of this type reports once their device plugin runs, by resource name, as Karpenter's AWS
   * provider counts them: NVIDIA and AMD GPUs, and AWS's Neuron devices. Empty for a type without any.
   */
  public Map<String, Long> extendedResources() {
    Map<String, Long> devices = new TreeMap<>();
    if (gpuCount > 0 && "NVIDIA".equalsIgnoreCase(gpuManufacturer)) {
      devices.put(GPU_RESOURCE, (long) gpuCount);
    }
    if (gpuCount > 0 && "AMD".equalsIgnoreCase(gpuManufacturer)) {
      devices.put(AMD_GPU_RESOURCE, (long) gpuCount);
    }
    if ("AWS".equalsIgnoreCase(facts.acceleratorManufacturer()) && facts.acceleratorCount() != null && facts.acceleratorCount() > 0) {
      devices.put(NEURON_RESOURCE, (long) facts.acceleratorCount());
    }
    return devices;
  }

  /**
   * What a node of this type has before any reserve: vCPUs as millicores, memory as EC2 lists it, the ENI max pods,
   * {@code ephemeralStorageBytes} (the root volume or the instance store, {@code EphemeralStorage}) and its devices
   * ({@link #extendedResources}).
   */
  public Resources capacity(long ephemeralStorageBytes) {
    return new Resources(vcpu * 1000L, memoryMiB * 1024 * 1024, ephemeralStorageBytes, eniMaxPods(), extendedResources());
  }

  /** EKS's max pods from ENI limits: ENIs x (IPv4 per ENI - 1) + 2. */
  public long eniMaxPods() {
    return (long) maxEnis * (ipv4PerEni - 1) + 2;
  }
}
