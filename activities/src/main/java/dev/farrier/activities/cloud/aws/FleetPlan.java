package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.CloudProviderException.Kind;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.Offering;
import dev.farrier.activities.cloud.ZonalSubnets;
import dev.farrier.activities.crd.ResolvedSubnet;
import dev.farrier.model.WellKnown;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one CreateFleet asks for, decided before any call: one capacity type (spot when allowed and offered, as
 * Karpenter prefers it, else on-demand), and at most {@link #MAX_OVERRIDES} (instance type, subnet) overrides over
 * the available offerings in the subnets' zones, cheapest first (ties keep the caller's ranking), each zone through
 * its subnet with the most free addresses ({@link ZonalSubnets}). Offerings marked unavailable (no capacity recently)
 * are skipped, so the next attempt asks for other pools. Each type launches from the newest image that fits it
 * ({@link Image#newestFor}: its architecture, and for an alias the NVIDIA or Neuron image a GPU or accelerator type
 * needs); a type no image fits is left out.
 */
public record FleetPlan(String capacityType, List<Override> overrides, Map<String, Image> imageByType, CapacityReservation reservation) {
  /** EC2 Fleet's limit per request is 300; Karpenter asks for at most 60 to keep requests small and fast. */
  public static final int MAX_OVERRIDES = 60;
  private static final List<String> CAPACITY_PREFERENCE = List.of(WellKnown.CAPACITY_SPOT, WellKnown.CAPACITY_ON_DEMAND);

  /** One instance type in one subnet (hence one zone), with the price that ranked it. */
  public record Override(String instanceType, String arch, String subnetId, String zone, double pricePerHour) {}

  public FleetPlan {
    overrides = List.copyOf(overrides);
    imageByType = Map.copyOf(imageByType);
  }

  /** A plan for spot or on-demand capacity (no reservation). */
  public FleetPlan(String capacityType, List<Override> overrides, Map<String, Image> imageByType) {
    this(capacityType, overrides, imageByType, null);
  }

  /**
   * As {@link #plan(List, Map, List, List, Map, List, List)}, first into a capacity reservation of {@code reservations}
   * (those the launch may use, in order; Karpenter prefers reserved over spot and on-demand): the first whose instance
   * type fits an image and whose zone has a subnet, as one override in that subnet. Without one, the other capacity
   * types are planned; when {@code reserved} was the only one, {@link Kind#INSUFFICIENT_CAPACITY}.
   */
  public static FleetPlan plan(List<String> rankedTypes, Map<String, InstanceType> types, List<String> capacityTypes,
      List<ResolvedSubnet> subnets, Map<String, Integer> freeAddresses, List<String> allowedZones, List<Image> images,
      List<CapacityReservation> reservations) {
    List<String> others = capacityTypes.stream().filter(c -> !c.equals(WellKnown.CAPACITY_RESERVED)).toList();
    if (!reservations.isEmpty()) {
      Map<String, ResolvedSubnet> subnetByZone = ZonalSubnets.choose(subnets, freeAddresses);
      for (CapacityReservation r : reservations) {
        InstanceType type = types.get(r.instanceType());
        ResolvedSubnet subnet = subnetByZone.get(r.zone());
        Optional<Image> image = type == null ? Optional.empty() : Image.newestFor(images, type);
        if (subnet != null && image.isPresent()) {
          return new FleetPlan(WellKnown.CAPACITY_RESERVED, List.of(new Override(type.name(), type.arch(), subnet.id(), subnet.zone(), 0)),
              Map.of(type.name(), image.get()), r);
        }
      }
    }
    if (others.isEmpty()) {
      throw new CloudProviderException(Kind.INSUFFICIENT_CAPACITY, "no capacity reservation of " + rankedTypes + " with room in zones "
          + allowedZones + " (reservations: " + reservations.stream().map(CapacityReservation::id).toList() + ")");
    }
    return plan(rankedTypes, types, others, subnets, freeAddresses, allowedZones, images);
  }

  /** With the subnets' free addresses unknown: each zone through its first subnet by id. */
  public static FleetPlan plan(List<String> rankedTypes, Map<String, InstanceType> types, List<String> capacityTypes,
      List<ResolvedSubnet> subnets, List<String> allowedZones, List<Image> images) {
    return plan(rankedTypes, types, capacityTypes, subnets, Map.of(), allowedZones, images);
  }

  /**
   * Throws {@link Kind#INVALID_REQUEST} when no ranked type is known, no image fits, or there are no subnets;
   * {@link Kind#INSUFFICIENT_CAPACITY} when every fitting offering is unavailable, or every subnet of the allowed
   * zones has no free address left.
   *
   * @param freeAddresses free addresses by subnet id, as DescribeSubnets reported them for this launch
   */
  public static FleetPlan plan(List<String> rankedTypes, Map<String, InstanceType> types, List<String> capacityTypes,
      List<ResolvedSubnet> subnets, Map<String, Integer> freeAddresses, List<String> allowedZones, List<Image> images) {
    List<ResolvedSubnet> allowed = subnets.stream().filter(s -> allowedZones.isEmpty() || allowedZones.contains(s.zone())).toList();
    if (allowed.isEmpty()) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, "no subnet in the allowed zones " + allowedZones
          + " (subnets: " + subnets.stream().map(s -> s.id() + "@" + s.zone()).toList() + ")");
    }
    Map<String, ResolvedSubnet> subnetByZone = ZonalSubnets.choose(allowed, freeAddresses);
    if (subnetByZone.isEmpty()) {
      throw new CloudProviderException(Kind.INSUFFICIENT_CAPACITY, "no free IP address left in any subnet of the allowed zones "
          + allowed.stream().map(s -> s.id() + "@" + s.zone()).toList());
    }
    List<InstanceType> known = rankedTypes.stream().map(types::get).filter(t -> t != null).toList();
    if (known.isEmpty()) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, "none of the instance types " + rankedTypes + " is offered in the region");
    }
    Map<String, Image> imageByType = new LinkedHashMap<>();
    known.forEach(t -> Image.newestFor(images, t).ifPresent(i -> imageByType.put(t.name(), i)));
    List<InstanceType> fitting = known.stream().filter(t -> imageByType.containsKey(t.name())).toList();
    if (fitting.isEmpty()) {
      throw new CloudProviderException(Kind.INVALID_REQUEST, "no image fits (architecture, accelerator) any of " + rankedTypes);
    }
    for (String capacityType : CAPACITY_PREFERENCE) {
      if (!capacityTypes.contains(capacityType)) {
        continue;
      }
      List<Override> overrides = new ArrayList<>();
      for (InstanceType type : fitting) {
        for (ResolvedSubnet subnet : subnetByZone.values()) {
          offering(type, subnet.zone(), capacityType).ifPresent(o ->
              overrides.add(new Override(type.name(), type.arch(), subnet.id(), subnet.zone(), o.pricePerHour())));
        }
      }
      if (!overrides.isEmpty()) {
        // A stable sort: equal prices keep the ranking the scheduler chose.
        overrides.sort(Comparator.comparingDouble(Override::pricePerHour));
        return new FleetPlan(capacityType, overrides.subList(0, Math.min(MAX_OVERRIDES, overrides.size())), imageByType);
      }
    }
    throw new CloudProviderException(Kind.INSUFFICIENT_CAPACITY, "no available offering of " + rankedTypes + " in zones "
        + subnetByZone.keySet() + " as " + capacityTypes);
  }

  private static Optional<Offering> offering(InstanceType type, String zone, String capacityType) {
    return type.offerings().stream()
        .filter(o -> o.zone().equals(zone) && o.capacityType().equals(capacityType) && o.available())
        .findFirst();
  }

  /** This plan with only the overrides of {@code instanceTypes}, in the same order. */
  public FleetPlan onlyTypes(java.util.Set<String> instanceTypes) {
    return new FleetPlan(capacityType, overrides.stream().filter(o -> instanceTypes.contains(o.instanceType())).toList(), imageByType,
        reservation);
  }
}
