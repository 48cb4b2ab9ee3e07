package dev.farrier.activities.cloud;

import dev.farrier.model.Taint;
import java.util.List;
import java.util.Map;

/**
 * One instance for one NodeClaim.
 *
 * @param instanceTypes ranked, cheapest first; the provider picks the first with an available offering in
 *                      {@code zones} x {@code capacityTypes} (spot preferred over on-demand when both are allowed)
 * @param images        resolved images; the provider takes the one matching the chosen type's architecture
 * @param nodeLabels    labels and taints the node registers with (what user data passes to the kubelet)
 * @param tags          tags for the instance (ownership tags included by the caller)
 * @param launch        the EC2NodeClass's subnets, security groups, instance profile and boot settings
 * @param capacityReservations the reservations a {@code reserved} launch may go into (the claim's
 *                      {@code karpenter.k8s.aws/capacity-reservation-id} values, from the EC2NodeClass's status);
 *                      tried before spot and on-demand when {@code capacityTypes} has {@code reserved}
 */
public record LaunchRequest(
    String cluster,
    String nodeClaim,
    String nodePool,
    String nodeClass,
    List<String> instanceTypes,
    List<String> capacityTypes,
    List<String> zones,
    List<Image> images,
    Map<String, String> tags,
    Map<String, String> nodeLabels,
    List<Taint> nodeTaints,
    NodeClassLaunch launch,
    List<CapacityReservation> capacityReservations) {
  /** A launch into no capacity reservation. */
  public LaunchRequest(String cluster, String nodeClaim, String nodePool, String nodeClass, List<String> instanceTypes,
      List<String> capacityTypes, List<String> zones, List<Image> images, Map<String, String> tags,
      Map<String, String> nodeLabels, List<Taint> nodeTaints, NodeClassLaunch launch) {
    this(cluster, nodeClaim, nodePool, nodeClass, instanceTypes, capacityTypes, zones, images, tags, nodeLabels, nodeTaints, launch,
        List.of());
  }

  /** A launch without node class constraints (the simulated cloud's tests). */
  public LaunchRequest(String cluster, String nodeClaim, String nodePool, String nodeClass, List<String> instanceTypes,
      List<String> capacityTypes, List<String> zones, List<Image> images, Map<String, String> tags,
      Map<String, String> nodeLabels, List<Taint> nodeTaints) {
    this(cluster, nodeClaim, nodePool, nodeClass, instanceTypes, capacityTypes, zones, images, tags, nodeLabels, nodeTaints,
        NodeClassLaunch.NONE);
  }

  public LaunchRequest {
    instanceTypes = List.copyOf(instanceTypes);
    capacityTypes = List.copyOf(capacityTypes);
    zones = List.copyOf(zones);
    images = List.copyOf(images);
    tags = Map.copyOf(tags);
    nodeLabels = Map.copyOf(nodeLabels);
    nodeTaints = List.copyOf(nodeTaints);
    launch = launch == null ? NodeClassLaunch.NONE : launch;
    capacityReservations = capacityReservations == null ? List.of() : List.copyOf(capacityReservations);
  }

  /**
   * The reservations this launch may go into now, in the order given: none unless {@code capacityTypes} has
   * {@code reserved}; those of a listed instance type, in an allowed zone, active and (when known) with room.
   */
  public List<CapacityReservation> usableReservations() {
    if (!capacityTypes.contains(dev.farrier.model.WellKnown.CAPACITY_RESERVED)) {
      return List.of();
    }
    List<String> zones = allowedZones();
    return capacityReservations.stream().filter(r -> instanceTypes.contains(r.instanceType()))
        .filter(r -> zones.isEmpty() || zones.contains(r.zone())).filter(CapacityReservation::launchable).toList();
  }

  /**
   * The zones the launch may use: {@code zones} (from the NodeClaim's requirements) narrowed to the subnets' zones
   * when the node class has subnets. Empty means any zone; a non-empty request whose zones and subnets do not
   * overlap yields the single impossible zone list {@code [""]}, so nothing matches.
   */
  public List<String> allowedZones() {
    List<String> subnetZones = launch.subnetZones();
    if (subnetZones.isEmpty()) {
      return zones;
    }
    if (zones.isEmpty()) {
      return subnetZones;
    }
    List<String> both = zones.stream().filter(subnetZones::contains).toList();
    return both.isEmpty() ? List.of("") : both;
  }
}
