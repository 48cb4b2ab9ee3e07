package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.AmiAlias;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.ImageVariant;
import java.util.List;
import java.util.Map;

/**
 * One row of {@code amis/eks-optimized.csv}: the image plus what selection needs (owner alias, family, tags) and the
 * flavour of the family's images it is ({@link AmiAlias#STANDARD}, {@code nvidia}, {@code neuron}, AL2's {@code gpu}),
 * which names its SSM parameters.
 */
record CatalogImage(Image image, String ownerAlias, String family, String flavour, String release, Map<String, String> tags) {
  /** The tag telling the simulation how the image's instances boot (see {@link #neverJoins}). */
  static final String SIMULATED_BOOT_TAG = "farrier.dev/simulated-boot";

  CatalogImage {
    tags = Map.copyOf(tags);
  }

  /** The same row with its image marked for {@code variants} of instance type (as an alias resolved it). */
  CatalogImage withVariants(List<ImageVariant> variants) {
    return new CatalogImage(image.withVariants(variants), ownerAlias, family, flavour, release, tags);
  }

  /**
   * Whether the image's instances run but their kubelet never registers a Node, as with a broken custom AMI
   * ({@code farrier.dev/simulated-boot=never-joins}): how a sandbox makes a rollout's canary fail to join.
   */
  boolean neverJoins() {
    return "never-joins".equals(tags.get(SIMULATED_BOOT_TAG));
  }

  /** Whether AWS publishes the image (it then has SSM parameters); an account's private images have none. */
  boolean publishedByAmazon() {
    return AmiCatalog.AMAZON_OWNER_ID.equals(image.owner());
  }
}
