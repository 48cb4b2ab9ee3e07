package dev.farrier.activities.cloud;

import java.time.Instant;

/**
 * An AMI. {@code arch} is x86_64 or arm64; {@code kubernetesVersion} is the minor version the image's kubelet
 * belongs to (e.g. 1.34) and {@code kubeletVersion} its full version (e.g. v1.34.2-eks-b1a6e55), when known.
 */
public record Image(String id, String name, String arch, String owner, String kubernetesVersion, String kubeletVersion, Instant creationDate) {
  /** The Kubernetes arch label value (amd64, arm64) of EC2's {@code arch}. */
  public String kubernetesArch() {
    return "x86_64".equals(arch) ? "amd64" : arch;
  }
}
