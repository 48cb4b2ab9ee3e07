package dev.farrier.catalog;

import dev.farrier.activities.cloud.CsvResource;
import dev.farrier.activities.cloud.InstanceFacts;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.Offering;
import dev.farrier.activities.cloud.aws.OnDemandPrices;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The EC2 instance types of one region, with their offerings, from the CSV files in {@code ec2/} on the classpath
 * (copied from real EC2 data; see {@code ec2/README.md} for where each column comes from). Never reads anything
 * outside the classpath. The on-demand prices are the table the AWS adapter ships ({@link OnDemandPrices#SHIPPED},
 * in the activities jar); the types, offerings and ENI limits live in this module, which the production worker does
 * not carry (it asks EC2 for them): the simulated cloud and the benchmarks are its users.
 *
 * <p>What is kept, and why:
 * <ul>
 *   <li>Architectures x86_64 and arm64 only ({@code i386|x86_64} counts as x86_64); mac types are skipped because
 *       they need dedicated hosts and cannot join a cluster as ordinary nodes.</li>
 *   <li>Only types offered in the region (offerings.csv) and with an on-demand price (on-demand-prices.csv): a
 *       type without a price cannot be ranked by cost. A region without any price fails to load instead of
 *       pretending everything is free.</li>
 *   <li>One on-demand offering per offered zone, and a spot offering when the type's usage classes include spot,
 *       priced by the {@link SpotPricer} (by default {@link DeterministicSpotPrice}). All offerings are available;
 *       availability is the provider's business.</li>
 *   <li>{@link InstanceType#maxEnis()} is the ENI count of the default network card (vpc-limits.csv) where known,
 *       because that is what the VPC CNI, and so EKS's max pods, can use (p4d.24xlarge: 15 of 60, 737 pods).</li>
 *   <li>{@link InstanceType#instanceStoreGb()} is the total size of its instance-store disks (instance-storage.csv),
 *       what a node of an EC2NodeClass with {@code instanceStorePolicy: RAID0} offers as ephemeral storage.</li>
 * </ul>
 */
public final class InstanceTypeCatalog {
  public static final String DEFAULT_REGION = "us-east-1";

  private final String region;
  private final List<InstanceType> instanceTypes;
  private final Map<String, InstanceType> byName;
  private final List<String> zones;

  private InstanceTypeCatalog(String region, List<InstanceType> instanceTypes) {
    this.region = region;
    this.instanceTypes = List.copyOf(instanceTypes);
    this.byName = instanceTypes.stream().collect(Collectors.toUnmodifiableMap(InstanceType::name, t -> t));
    this.zones = instanceTypes.stream()
        .flatMap(t -> t.offerings().stream())
        .map(Offering::zone)
        .collect(Collectors.toCollection(TreeSet::new))
        .stream()
        .toList();
  }

  /** Loads {@code region} with {@link DeterministicSpotPrice} spot prices. */
  public static InstanceTypeCatalog load(String region) {
    return load(region, new DeterministicSpotPrice());
  }

  /**
   * Loads {@code region}; throws {@link IllegalArgumentException} when the data has no on-demand prices or no
   * offerings for it.
   */
  public static InstanceTypeCatalog load(String region, SpotPricer spotPricer) {
    Map<String, Double> prices = new HashMap<>();
    Set<String> pricedRegions = new TreeSet<>();
    for (Map<String, String> row : CsvResource.read(OnDemandPrices.SHIPPED)) {
      pricedRegions.add(row.get("region"));
      if (row.get("region").equals(region)) {
        prices.put(row.get("name"), Double.parseDouble(row.get("usd_per_hour")));
      }
    }
    if (prices.isEmpty()) {
      throw new IllegalArgumentException("the EC2 catalogue has no on-demand prices for region '" + region
          + "'; regions with prices: " + pricedRegions);
    }
    Map<String, Set<String>> zonesByType = new HashMap<>();
    for (Map<String, String> row : CsvResource.read("ec2/offerings.csv")) {
      if (row.get("region").equals(region)) {
        zonesByType.computeIfAbsent(row.get("name"), n -> new TreeSet<>()).add(row.get("zone"));
      }
    }
    if (zonesByType.isEmpty()) {
      throw new IllegalArgumentException("the EC2 catalogue has no instance type offerings for region '" + region + "'");
    }
    Map<String, Map<String, String>> vpcLimits = new HashMap<>();
    for (Map<String, String> row : CsvResource.read("ec2/vpc-limits.csv")) {
      vpcLimits.put(row.get("name"), row);
    }

    Map<String, Map<String, String>> facts = new HashMap<>();
    for (Map<String, String> row : CsvResource.read("ec2/instance-facts.csv")) {
      facts.put(row.get("name"), row);
    }
    Map<String, Map<String, String>> storage = new HashMap<>();
    for (Map<String, String> row : CsvResource.read("ec2/instance-storage.csv")) {
      storage.put(row.get("name"), row);
    }

    Map<String, InstanceType> types = new TreeMap<>();
    for (Map<String, String> row : CsvResource.read("ec2/instance-types.csv")) {
      String name = row.get("name");
      Optional<String> arch = architecture(row.get("arch"));
      Double onDemand = prices.get(name);
      Set<String> zones = zonesByType.get(name);
      if (arch.isEmpty() || onDemand == null || zones == null) {
        continue;
      }
      boolean spot = List.of(row.get("supported_usage_classes").split("\\|")).contains("spot");
      List<Offering> offerings = new ArrayList<>();
      for (String zone : zones) {
        offerings.add(new Offering(zone, "on-demand", onDemand, true));
        if (spot) {
          offerings.add(new Offering(zone, "spot", spotPricer.spotPrice(name, zone, onDemand), true));
        }
      }
      Map<String, String> limits = vpcLimits.get(name);
      int maxEnis = Integer.parseInt(limits != null ? limits.get("default_card_max_enis") : row.get("max_enis"));
      int ipv4PerEni = Integer.parseInt(limits != null ? limits.get("ipv4_per_eni") : row.get("ipv4_per_eni"));
      types.put(name, new InstanceType(
          name,
          arch.get(),
          Integer.parseInt(row.get("vcpu")),
          Long.parseLong(row.get("memory_mib")),
          Integer.parseInt(row.get("gpu_count")),
          row.get("gpu_manufacturer"),
          row.get("gpu_name"),
          maxEnis,
          ipv4PerEni,
          Boolean.parseBoolean(row.get("bare_metal")),
          offerings,
          facts(row.get("hypervisor"), facts.getOrDefault(name, Map.of()), storage.getOrDefault(name, Map.of()))));
    }
    return new InstanceTypeCatalog(region, new ArrayList<>(types.values()));
  }

  /**
   * A type's facts from instance-facts.csv, its hypervisor from instance-types.csv and its instance store from
   * instance-storage.csv; an empty cell or a missing row is unknown.
   */
  private static InstanceFacts facts(String hypervisor, Map<String, String> row, Map<String, String> storage) {
    return new InstanceFacts(hypervisor, row.get("cpu_manufacturer"), number(row, "sustained_clock_mhz"), number(storage, "total_size_gb"),
        !storage.isEmpty() && !"unsupported".equals(storage.get("nvme_support")),
        number(row, "network_bandwidth_mbps"), number(row, "ebs_bandwidth_mbps"), number(row, "gpu_memory_mib"),
        row.get("accelerator_name"), row.get("accelerator_manufacturer"), number(row, "accelerator_count"),
        row.getOrDefault("encryption_in_transit", "").isEmpty() ? null : Boolean.parseBoolean(row.get("encryption_in_transit")));
  }

  private static Integer number(Map<String, String> row, String column) {
    String value = row.get(column);
    return value == null || value.isEmpty() ? null : Integer.valueOf(value);
  }

  private static Optional<String> architecture(String csvArch) {
    return switch (csvArch) {
      case "x86_64", "i386|x86_64" -> Optional.of("x86_64");
      case "arm64" -> Optional.of("arm64");
      default -> Optional.empty();
    };
  }

  public String region() {
    return region;
  }

  /** Every type, sorted by name. */
  public List<InstanceType> instanceTypes() {
    return instanceTypes;
  }

  public Optional<InstanceType> find(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** The region's zones that offer at least one type, sorted. */
  public List<String> zones() {
    return zones;
  }
}
