package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.AmiAlias;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The SSM parameters AWS publishes for EKS-optimized AMIs under {@code /aws/service} (names built by
 * {@link AmiAlias#parameter}, as the aws provider reads them for aliases and the blueprint reads them with
 * {@code aws ssm get-parameter}).
 */
final class SsmParameters {
  private SsmParameters() {}

  /**
   * Every parameter for the images AWS publishes: one pinned per image, one recommended/latest per (family,
   * version, arch, flavour). The account's own images are left out, as AWS never publishes parameters for them, so a newer
   * private image of a known family changes neither an alias nor what "recommended" points at.
   */
  static Map<String, String> derive(List<CatalogImage> catalogue) {
    List<CatalogImage> images = catalogue.stream().filter(CatalogImage::publishedByAmazon).toList();
    Map<String, String> parameters = new HashMap<>();
    for (CatalogImage image : images) {
      String k8s = image.image().kubernetesVersion();
      String arch = image.image().arch();
      aliasParameter(image.family(), image.release(), arch, image.flavour(), k8s).ifPresent(p -> parameters.put(p, image.image().id()));
    }
    Map<List<String>, Optional<CatalogImage>> newest = images.stream().collect(Collectors.groupingBy(
        i -> List.of(i.family(), i.image().kubernetesVersion(), i.image().arch(), i.flavour()),
        Collectors.maxBy(Comparator.comparing((CatalogImage i) -> i.image().creationDate()).thenComparing(i -> i.image().name()))));
    newest.forEach((key, image) -> image.ifPresent(i ->
        aliasParameter(key.get(0), "latest", key.get(2), key.get(3), key.get(1)).ifPresent(p -> parameters.put(p, i.image().id()))));
    return parameters;
  }

  /**
   * The parameter holding the image id of alias {@code family@version} for one architecture and flavour (standard,
   * nvidia, neuron, AL2's gpu), if the family is known and publishes one for that version (Windows only its latest,
   * for x86_64).
   */
  static Optional<String> aliasParameter(String family, String version, String arch, String flavour, String k8s) {
    if (!AmiAlias.known(family)) {
      return Optional.empty();
    }
    AmiAlias alias = new AmiAlias(family, version);
    if (alias.windows().isPresent() && !alias.latest() || !alias.architectures().contains(arch)) {
      return Optional.empty();
    }
    return Optional.of(alias.parameter(AmiAlias.AWS_PARAMETER_ROOT, arch, flavour, k8s));
  }
}
