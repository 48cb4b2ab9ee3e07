package dev.farrier.activities.cloud.simulated;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The SSM parameter names AWS publishes for EKS-optimized AMIs, as Karpenter's AWS provider reads them for
 * aliases (and as the blueprint reads them with {@code aws ssm get-parameter}):
 * <ul>
 *   <li>AL2023: {@code /aws/service/eks/optimized-ami/<k8s>/amazon-linux-2023/<arch>/standard/recommended/image_id},
 *       pinned {@code .../standard/amazon-eks-node-al2023-<arch>-standard-<k8s>-<release>/image_id}</li>
 *   <li>AL2: {@code /aws/service/eks/optimized-ami/<k8s>/amazon-linux-2[-arm64]/recommended/image_id}, pinned
 *       {@code .../amazon-linux-2[-arm64]/<image name>/image_id}</li>
 *   <li>Bottlerocket: {@code /aws/service/bottlerocket/aws-k8s-<k8s>/<arch>/latest/image_id}, pinned with the
 *       release without its {@code v} ({@code .../x86_64/1.50.0/image_id})</li>
 * </ul>
 */
final class SsmParameters {
  private SsmParameters() {}

  /** Every parameter for the images: one pinned per image, one recommended/latest per (family, version, arch). */
  static Map<String, String> derive(List<CatalogImage> images) {
    Map<String, String> parameters = new HashMap<>();
    for (CatalogImage image : images) {
      String k8s = image.image().kubernetesVersion();
      String arch = image.image().arch();
      aliasParameter(image.family(), image.release(), arch, k8s).ifPresent(p -> parameters.put(p, image.image().id()));
    }
    Map<List<String>, Optional<CatalogImage>> newest = images.stream().collect(Collectors.groupingBy(
        i -> List.of(i.family(), i.image().kubernetesVersion(), i.image().arch()),
        Collectors.maxBy(Comparator.comparing((CatalogImage i) -> i.image().creationDate()).thenComparing(i -> i.image().name()))));
    newest.forEach((key, image) -> image.ifPresent(i ->
        aliasParameter(key.get(0), "latest", key.get(2), key.get(1)).ifPresent(p -> parameters.put(p, i.image().id()))));
    return parameters;
  }

  /** The parameter holding the image id of alias {@code family@version} for one architecture, if the family is known. */
  static Optional<String> aliasParameter(String family, String version, String arch, String k8s) {
    boolean latest = "latest".equals(version);
    return switch (family) {
      case "al2023" -> Optional.of("/aws/service/eks/optimized-ami/" + k8s + "/amazon-linux-2023/" + arch + "/standard/"
          + (latest ? "recommended" : "amazon-eks-node-al2023-" + arch + "-standard-" + k8s + "-" + version) + "/image_id");
      case "al2" -> {
        boolean arm = "arm64".equals(arch);
        yield Optional.of("/aws/service/eks/optimized-ami/" + k8s + "/amazon-linux-2" + (arm ? "-arm64" : "") + "/"
            + (latest ? "recommended" : "amazon-eks-" + (arm ? "arm64-" : "") + "node-" + k8s + "-" + version) + "/image_id");
      }
      case "bottlerocket" -> Optional.of("/aws/service/bottlerocket/aws-k8s-" + k8s + "/" + arch + "/"
          + (latest ? "latest" : version.startsWith("v") ? version.substring(1) : version) + "/image_id");
      default -> Optional.empty();
    };
  }
}
