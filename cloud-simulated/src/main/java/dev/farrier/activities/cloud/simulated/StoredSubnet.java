package dev.farrier.activities.cloud.simulated;

import java.util.Map;

/**
 * A subnet a test or the sandbox added to the cluster's VPC ({@link SimulatedCloud#addSubnet}).
 *
 * @param addresses the addresses instances may take when the subnet is empty (EC2's count for an empty subnet)
 */
record StoredSubnet(String id, String zone, String zoneId, int addresses, Map<String, String> tags) {
  StoredSubnet {
    tags = tags == null ? Map.of() : Map.copyOf(tags);
  }
}
