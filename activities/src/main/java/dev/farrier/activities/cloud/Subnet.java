package dev.farrier.activities.cloud;

import java.util.Map;

/**
 * A subnet a {@link SubnetTerm} resolved to.
 *
 * @param zone         the availability zone's name (us-east-1a)
 * @param zoneId       the zone's id (use1-az1), stable across accounts
 * @param availableIps free IPv4 addresses, when the cloud reports them; null otherwise
 */
public record Subnet(String id, String zone, String zoneId, Integer availableIps, Map<String, String> tags) {
  public Subnet {
    tags = tags == null ? Map.of() : Map.copyOf(tags);
  }
}
