package dev.farrier.activities.cloud.simulated;

import java.util.List;

/**
 * Private IPs and DNS names for launched instances: {@code 10.<zone index>.<n / 254 mod 256>.<n mod 254 + 1>} for
 * the n-th launch, unique for 65,024 launches per zone and stable across restarts (n is persisted). DNS names follow
 * EC2: {@code ip-10-0-1-23.ec2.internal} in us-east-1, {@code ip-10-0-1-23.<region>.compute.internal} elsewhere.
 */
final class PrivateAddresses {
  private PrivateAddresses() {}

  static String ip(long sequence, String zone, List<String> zones) {
    int zoneIndex = Math.max(0, zones.indexOf(zone));
    return "10." + zoneIndex + "." + (sequence / 254) % 256 + "." + (sequence % 254 + 1);
  }

  static String dnsName(String ip, String region) {
    String host = "ip-" + ip.replace('.', '-');
    return "us-east-1".equals(region) ? host + ".ec2.internal" : host + "." + region + ".compute.internal";
  }
}
