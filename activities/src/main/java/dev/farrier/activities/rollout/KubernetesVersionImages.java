package dev.farrier.activities.rollout;

import dev.farrier.model.AmiTerm;
import dev.farrier.workflows.upgrade.UpgradeInput;
import java.util.List;
import java.util.Locale;

/**
 * The {@code amiSelectorTerms} that pick the EKS-optimized images of an AMI family for one Kubernetes version, by the
 * names AWS publishes them under (owner {@code amazon}; per term the newest image of each architecture wins): what a
 * fleet upgrade with {@code --kubernetes-version} rolls to.
 */
final class KubernetesVersionImages {
  private KubernetesVersionImages() {}

  /**
   * @param family the EC2NodeClass's AMI family ({@code AL2023}, {@code AL2}, {@code Bottlerocket}, {@code Windows2022}...; an alias's
   *               family when it has no {@code amiFamily})
   * @throws IllegalArgumentException for a family without EKS-optimized images (Custom), or a version that
   *                                  is not {@code major.minor}
   */
  static List<AmiTerm> terms(String family, String version) {
    if (version == null || !UpgradeInput.KUBERNETES_VERSION.matcher(version).matches()) {
      throw new IllegalArgumentException("Kubernetes version '" + version + "' is not major.minor, e.g. 1.35");
    }
    return switch (family == null ? "" : family.toLowerCase(Locale.ROOT)) {
      case "al2023" -> List.of(amazon("amazon-eks-node-al2023-*-standard-" + version + "-*"));
      case "al2" -> List.of(amazon("amazon-eks-node-" + version + "-*"), amazon("amazon-eks-arm64-node-" + version + "-*"));
      case "bottlerocket" -> List.of(amazon("bottlerocket-aws-k8s-" + version + "-*"));
      case "windows2019", "windows2022", "windows2025" ->
          List.of(amazon("Windows_Server-" + family.substring("windows".length()) + "-English-Core-EKS_Optimized-" + version + "-*"));
      default -> throw new IllegalArgumentException("AMI family " + family + " has no EKS-optimized images to pick by "
          + "Kubernetes version: name the AMI with --ami");
    };
  }

  private static AmiTerm amazon(String name) {
    return new AmiTerm(null, null, name, "amazon", null);
  }
}
