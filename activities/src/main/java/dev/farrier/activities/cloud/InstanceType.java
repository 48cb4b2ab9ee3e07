package dev.farrier.activities.cloud;

import java.util.List;

/** An instance type with its offerings. {@code arch} is x86_64 or arm64 (EC2's words). */
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
    List<Offering> offerings) {
  public InstanceType {
    offerings = List.copyOf(offerings);
  }

  /** The Kubernetes arch label value (amd64, arm64). */
  public String kubernetesArch() {
    return "x86_64".equals(arch) ? "amd64" : arch;
  }

  /** EKS's max pods from ENI limits: ENIs x (IPv4 per ENI - 1) + 2. */
  public long eniMaxPods() {
    return (long) maxEnis * (ipv4PerEni - 1) + 2;
  }
}
