package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.CloudProviderException.Kind;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.activities.cloud.Offering;
import dev.farrier.catalog.InstanceTypeCatalog;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which offerings a launch tries, in order, the way EC2 Fleet walks its overrides for Karpenter: the ranked instance
 * types that have an image for their architecture; spot before on-demand when both are allowed; within a type and
 * capacity type, the allowed zones cheapest first (ties by zone name). Offerings marked unavailable are left out.
 */
record OfferingSelection(InstanceType type, Offering offering, Image image) {
  private static final List<String> CAPACITY_PREFERENCE = List.of(WellKnown.CAPACITY_SPOT, WellKnown.CAPACITY_ON_DEMAND);

  OfferingKey key() {
    return new OfferingKey(type.name(), offering.zone(), offering.capacityType());
  }

  /**
   * Every offering the launch may use, best first; empty when all are marked unavailable. Throws
   * {@link Kind#INVALID_REQUEST} when no type exists or no image fits any type.
   */
  static List<OfferingSelection> candidates(InstanceTypeCatalog catalog, LaunchRequest request, List<OfferingKey> unavailableOfferings) {
    Set<OfferingKey> unavailable = new HashSet<>(unavailableOfferings);
    List<String> zones = request.allowedZones();
    boolean anyKnownType = false;
    boolean anyImage = false;
    List<OfferingSelection> candidates = new ArrayList<>();
    for (String typeName : request.instanceTypes()) {
      Optional<InstanceType> type = catalog.find(typeName);
      if (type.isEmpty()) {
        continue;
      }
      anyKnownType = true;
      Optional<Image> image = Image.newestFor(request.images(), type.get());
      if (image.isEmpty()) {
        continue;
      }
      anyImage = true;
      for (String capacityType : CAPACITY_PREFERENCE) {
        if (!request.capacityTypes().contains(capacityType)) {
          continue;
        }
        type.get().offerings().stream()
            .filter(o -> o.capacityType().equals(capacityType))
            .filter(o -> zones.isEmpty() || zones.contains(o.zone()))
            .filter(o -> !unavailable.contains(new OfferingKey(typeName, o.zone(), o.capacityType())))
            .sorted(Comparator.comparingDouble(Offering::pricePerHour).thenComparing(Offering::zone))
            .forEach(o -> candidates.add(new OfferingSelection(type.get(), o, image.get())));
      }
    }
    if (!anyKnownType) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, "none of the instance types " + request.instanceTypes()
          + " exists in " + catalog.region());
    }
    if (!anyImage) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, "no image fits (architecture, accelerator) any of "
          + request.instanceTypes());
    }
    return candidates;
  }
}
