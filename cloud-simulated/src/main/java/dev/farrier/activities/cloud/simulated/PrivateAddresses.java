package dev.farrier.activities.cloud.simulated;

import java.util.List;

/**
 * Private IPs and DNS names for launched instances: the n-th launch in zone number z (0-5) of network w gets
 * {@code 10.<w>.<40 z + (n / 254) mod 40>.<n mod 254 + 1>}: one /21-ish block per zone, unique among any 10,160
 * consecutive launches, and stable across restarts (n and w are persisted); the clouds of one process get distinct
 * networks ({@link StateStore}). DNS names follow EC2: {@code ip-10-7-1-23.ec2.internal} in us-east-1,
 * {@code ip-10-7-1-23.<region>.compute.internal} elsewhere.
 */
final class PrivateAddresses {
  private PrivateAddresses() {}

  static String ip(int network, long sequence, String zone, List<String> zones) {
    int zoneIndex = Math.max(0, zones.indexOf(zone)) % 6;
    return "10." + network + "." + (40 * zoneIndex + (sequence / 254) % 40) + "." + (sequence % 254 + 1);
  }

  static String dnsName(String ip, String region) {
    String host = "ip-" + ip.replace('.', '-');
    return "us-east-1".equals(region) ? host + ".ec2.internal" : host + "." + region + ".compute.internal";
  }
}
