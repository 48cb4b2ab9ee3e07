package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.CloudProviderException.Kind;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.InstanceTypeCatalog;
import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.activities.cloud.Offering;
import dev.farrier.workflows.model.WellKnown;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which offering a launch gets, the way EC2 Fleet does for Karpenter: the first ranked instance type that has an
 * image for its architecture and an available offering in the allowed zones; spot before on-demand when both are
 * allowed; among a type's offerings of one capacity type, the cheapest zone (ties by zone name).
 */
record OfferingSelection(InstanceType type, Offering offering, Image image) {
  private static final List<String> CAPACITY_PREFERENCE = List.of(WellKnown.CAPACITY_SPOT, WellKnown.CAPACITY_ON_DEMAND);

  /**
   * Throws {@link Kind#INVALID_REQUEST} when no type exists or no image fits any type, and
   * {@link Kind#INSUFFICIENT_CAPACITY} when every fitting offering is unavailable.
   */
  static OfferingSelection select(InstanceTypeCatalog catalog, LaunchRequest request, List<OfferingKey> unavailableOfferings) {
    Set<OfferingKey> unavailable = new HashSet<>(unavailableOfferings);
    List<String> zones = request.allowedZones();
    boolean anyKnownType = false;
    boolean anyImage = false;
    for (String typeName : request.instanceTypes()) {
      Optional<InstanceType> type = catalog.find(typeName);
      if (type.isEmpty()) {
        continue;
      }
      anyKnownType = true;
      Optional<Image> image = request.images().stream()
          .filter(i -> type.get().arch().equals(i.arch()))
          .max(Comparator.comparing(Image::creationDate, Comparator.nullsFirst(Comparator.naturalOrder())));
      if (image.isEmpty()) {
        continue;
      }
      anyImage = true;
      for (String capacityType : CAPACITY_PREFERENCE) {
        if (!request.capacityTypes().contains(capacityType)) {
          continue;
        }
        Optional<Offering> offering = type.get().offerings().stream()
            .filter(o -> o.capacityType().equals(capacityType))
            .filter(o -> zones.isEmpty() || zones.contains(o.zone()))
            .filter(o -> !unavailable.contains(new OfferingKey(typeName, o.zone(), o.capacityType())))
            .min(Comparator.comparingDouble(Offering::pricePerHour).thenComparing(Offering::zone));
        if (offering.isPresent()) {
          return new OfferingSelection(type.get(), offering.get(), image.get());
        }
      }
    }
    if (!anyKnownType) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, "none of the instance types " + request.instanceTypes()
          + " exists in " + catalog.region());
    }
    if (!anyImage) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, "no image matches the architecture of any of "
          + request.instanceTypes());
    }
    throw new CloudProviderException(Kind.INSUFFICIENT_CAPACITY, "no capacity for " + request.instanceTypes()
        + " in zones " + (zones.isEmpty() ? "any" : zones) + " as " + request.capacityTypes());
  }
}
