package dev.farrier.activities.cloud;

import java.time.Instant;
import java.util.Map;

/** An EC2 instance as Farrier sees it. {@code providerId} is {@code aws:///<zone>/<instance-id>}. */
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
    Instant launchTime) {
  public Instance {
    tags = Map.copyOf(tags);
  }
}
