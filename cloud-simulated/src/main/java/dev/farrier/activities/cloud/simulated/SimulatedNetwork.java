package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.SecurityGroup;
import dev.farrier.activities.cloud.SecurityGroupTerm;
import dev.farrier.activities.cloud.Subnet;
import dev.farrier.activities.cloud.SubnetTerm;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The simulated cluster's VPC, as the Karpenter getting-started stack tags it: one private subnet per zone of the
 * region and one node security group, all tagged {@code karpenter.sh/discovery=<cluster>} and with a Name tag, so
 * the shipped EC2NodeClass examples (selectors by the discovery tag) resolve; and one more security group,
 * {@code <cluster>-extra}, with only a Name tag, for a selector that moves nodes to another group. Derived from the cluster and region
 * alone (ids are hashes of them), so every process sees the same network without storing it.
 */
public final class SimulatedNetwork {
  public static final String DISCOVERY_TAG = "karpenter.sh/discovery";
  /** Free addresses EC2 reports for an empty /19 (8192 minus the 5 AWS reserves). */
  static final int AVAILABLE_IPS = 8187;

  private final String region;
  private final List<String> zones;
  private final String vpc;
  private final List<Subnet> subnets;
  private final List<SecurityGroup> securityGroups;

  public SimulatedNetwork(String cluster, String region, List<String> zones) {
    this.region = region;
    this.zones = List.copyOf(zones);
    this.vpc = "vpc-" + hash("vpc/" + region + "/" + cluster);
    List<Subnet> made = new ArrayList<>();
    for (int i = 0; i < zones.size(); i++) {
      String zone = zones.get(i);
      made.add(new Subnet("subnet-" + hash("subnet/" + vpc + "/" + zone), zone, zoneId(region, i), AVAILABLE_IPS,
          Map.of(DISCOVERY_TAG, cluster, "Name", cluster + "-private-" + zone, "kubernetes.io/role/internal-elb", "1")));
    }
    this.subnets = made.stream().sorted(Comparator.comparing(Subnet::id)).toList();
    String groupName = cluster + "-node";
    String extraName = cluster + "-extra";
    // The node group first; the extra group (say, one that opens a database) has no discovery tag, so only a selector
    // by its name or id takes it.
    this.securityGroups = List.of(new SecurityGroup("sg-" + hash("sg/" + vpc + "/" + groupName), groupName,
        Map.of(DISCOVERY_TAG, cluster, "Name", groupName)),
        new SecurityGroup("sg-" + hash("sg/" + vpc + "/" + extraName), extraName, Map.of("Name", extraName)));
  }

  /** The subnet per zone the network derives, each empty ({@link #AVAILABLE_IPS} free). */
  public List<Subnet> subnets() {
    return subnets;
  }

  /**
   * Every subnet of the VPC, the derived ones and {@code added}, sorted by id, each with its free addresses: its size
   * less the addresses {@code used} holds (by subnet id).
   */
  List<Subnet> subnets(List<StoredSubnet> added, Map<String, Integer> used) {
    List<Subnet> all = new ArrayList<>(subnets);
    added.forEach(s -> all.add(new Subnet(s.id(), s.zone(), s.zoneId(), s.addresses(), s.tags())));
    return all.stream().map(s -> new Subnet(s.id(), s.zone(), s.zoneId(), Math.max(0, s.availableIps() - used.getOrDefault(s.id(), 0)),
        s.tags())).sorted(Comparator.comparing(Subnet::id)).toList();
  }

  /** The {@code ordinal}-th subnet added in {@code zone}: its id derived from the VPC, zone and ordinal, as the derived ones. */
  StoredSubnet added(String zone, int ordinal, int addresses, Map<String, String> tags) {
    String zoneId = zoneId(zone);
    if (zoneId == null) {
      throw new IllegalArgumentException("zone " + zone + " is not one of " + zones);
    }
    return new StoredSubnet("subnet-" + hash("subnet/" + vpc + "/" + zone + "/" + ordinal), zone, zoneId, addresses, tags);
  }

  public List<SecurityGroup> securityGroups() {
    return securityGroups;
  }

  /** Of {@code candidates} (sorted by id), those any term matches, each once, in order. */
  static List<Subnet> resolveSubnets(List<SubnetTerm> terms, List<Subnet> candidates) {
    return candidates.stream().filter(s -> terms.stream().anyMatch(t -> t.matches(s.id(), s.tags()))).toList();
  }

  /** Terms ORed, each group once, sorted by id. */
  public List<SecurityGroup> resolveSecurityGroups(List<SecurityGroupTerm> terms) {
    return securityGroups.stream().filter(g -> terms.stream().anyMatch(t -> t.matches(g))).sorted(Comparator.comparing(SecurityGroup::id))
        .toList();
  }

  /** The id of one of the region's zones ({@code use1-az1} for us-east-1a); null for a zone not in the region. */
  public String zoneId(String zone) {
    int index = zones.indexOf(zone);
    return index < 0 ? null : zoneId(region, index);
  }

  /** A zone id in EC2's shape ({@code use1-az1} for us-east-1's first zone). */
  static String zoneId(String region, int index) {
    StringBuilder prefix = new StringBuilder();
    for (String part : region.split("-")) {
      prefix.append(Character.isDigit(part.charAt(0)) ? part : part.substring(0, part.length() == 2 ? 2 : 1));
    }
    return prefix + "-az" + (index + 1);
  }

  private static String hash(String seed) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(seed.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest).substring(0, 17);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK ships SHA-256", e);
    }
  }
}
