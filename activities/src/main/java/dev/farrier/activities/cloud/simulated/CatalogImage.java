package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.Image;
import java.util.Map;

/** One row of {@code amis/eks-optimized.csv}: the image plus what selection needs (owner alias, family, tags). */
record CatalogImage(Image image, String ownerAlias, String family, String release, Map<String, String> tags) {
  CatalogImage {
    tags = Map.copyOf(tags);
  }
}
