package dev.farrier.activities.cloud;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An EC2 instance as Farrier sees it. {@code providerId} is {@code aws:///<zone>/<instance-id>}.
 *
 * @param subnetId         the subnet of its primary network interface, null when unknown
 * @param securityGroupIds the security groups of its primary network interface, empty when unknown
 * @param capacityReservationId the capacity reservation it was launched into (capacity type {@code reserved}), else null
 */
public record Instance(
    String id,
    String providerId,
    String instanceType,
    String zone,
    String capacityType,
    String imageId,
    String state,
    String privateDnsName,
    double pricePerHour,
    Map<String, String> tags,
    Instant launchTime,
    String subnetId,
    List<String> securityGroupIds,
    String capacityReservationId) {
  /** An instance in no capacity reservation. */
  public Instance(String id, String providerId, String instanceType, String zone, String capacityType, String imageId, String state,
      String privateDnsName, double pricePerHour, Map<String, String> tags, Instant launchTime, String subnetId,
      List<String> securityGroupIds) {
    this(id, providerId, instanceType, zone, capacityType, imageId, state, privateDnsName, pricePerHour, tags, launchTime, subnetId,
        securityGroupIds, null);
  }

  public Instance {
    tags = Map.copyOf(tags);
    securityGroupIds = securityGroupIds == null ? List.of() : List.copyOf(securityGroupIds);
  }

  /** The same instance in another state (what terminate reports). */
  public Instance inState(String newState) {
    return new Instance(id, providerId, instanceType, zone, capacityType, imageId, newState, privateDnsName, pricePerHour, tags,
        launchTime, subnetId, securityGroupIds, capacityReservationId);
  }

  /** The same instance as launched into {@code reservation} (capacity type {@code reserved}). */
  public Instance inReservation(String reservation) {
    return new Instance(id, providerId, instanceType, zone, dev.farrier.model.WellKnown.CAPACITY_RESERVED, imageId, state, privateDnsName,
        pricePerHour, tags, launchTime, subnetId, securityGroupIds, reservation);
  }

  /** An id the cloud does not know (any more). */
  public static Instance notFound(String instanceId) {
    return new Instance(instanceId, "", "", "", "", "", "not-found", "", 0, Map.of(), null, null, List.of());
  }
}
