package dev.farrier.activities.cloud.aws;

import java.util.Set;

/** CreateFleet error codes that mean "no capacity for this offering now", as in Karpenter's AWS provider. */
final class CapacityErrors {
  static final Set<String> CODES = Set.of(
      "InsufficientInstanceCapacity",
      "MaxSpotInstanceCountExceeded",
      "VcpuLimitExceeded",
      "UnfulfillableCapacity",
      "Unsupported",
      "InsufficientFreeAddressesInSubnet",
      "ReservationCapacityExceeded");

  private CapacityErrors() {}

  static boolean isCapacityError(String code) {
    return code != null && CODES.contains(code);
  }
}
