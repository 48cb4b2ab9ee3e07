package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.Offering;
import dev.farrier.model.WellKnown;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceTypeOfferingsResponse;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceTypesResponse;
import software.amazon.awssdk.services.ec2.model.InstanceTypeInfo;
import software.amazon.awssdk.services.ec2.model.LocationType;

/**
 * The region's instance types as EC2 reports them (DescribeInstanceTypes, DescribeInstanceTypeOfferings by zone),
 * priced on-demand from {@link OnDemandPrices} and spot from {@link SpotPrices}. The catalogue is cached for
 * {@code refresh} (types and prices change rarely; EC2 throttles these calls); availability comes from
 * {@link UnavailableOfferings} at every read. Types without an on-demand price are left out (they cannot be ranked
 * by cost), as are types of other architectures than x86_64 and arm64; a spot offering without a spot price is left
 * out too.
 */
public final class AwsInstanceTypes {
  private final Ec2Api ec2;
  private final SpotPrices spotPrices;
  private final UnavailableOfferings unavailable;
  private final String region;
  private final Path onDemandPricesFile;
  private final Clock clock;
  private final Duration refresh;
  private List<InstanceType> cached;
  private Instant cachedAt;

  public AwsInstanceTypes(Ec2Api ec2, UnavailableOfferings unavailable, String region, Path onDemandPricesFile, Clock clock, Duration refresh) {
    this.ec2 = ec2;
    this.spotPrices = new SpotPrices(ec2, clock);
    this.unavailable = unavailable;
    this.region = region;
    this.onDemandPricesFile = onDemandPricesFile;
    this.clock = clock;
    this.refresh = refresh;
  }

  /** Every type with its offerings; an offering is unavailable while {@link UnavailableOfferings} says so. */
  public List<InstanceType> instanceTypes() {
    return catalogue().stream().map(t -> t.withOfferings(t.offerings().stream().map(o -> new Offering(o.zone(), o.capacityType(),
        o.pricePerHour(), !unavailable.isUnavailable(t.name(), o.zone(), o.capacityType()))).toList())).toList();
  }

  private synchronized List<InstanceType> catalogue() {
    Instant now = clock.instant();
    if (cached == null || !now.isBefore(cachedAt.plus(refresh))) {
      cached = load();
      cachedAt = now;
    }
    return cached;
  }

  private List<InstanceType> load() {
    Map<String, Double> onDemand = OnDemandPrices.load(region, onDemandPricesFile);
    Map<SpotPrices.Key, Double> spot = spotPrices.fetch();
    Map<String, Set<String>> zonesByType = offerings();
    Map<String, InstanceType> types = new TreeMap<>();
    for (InstanceTypeInfo info : describeInstanceTypes()) {
      String name = info.instanceTypeAsString();
      Double price = onDemand.get(name);
      Set<String> zones = zonesByType.get(name);
      String arch = architecture(info);
      if (price == null || zones == null || arch == null) {
        continue;
      }
      boolean spotSupported = info.supportedUsageClassesAsStrings().contains("spot");
      List<Offering> offerings = new ArrayList<>();
      for (String zone : zones) {
        offerings.add(new Offering(zone, WellKnown.CAPACITY_ON_DEMAND, price, true));
        Double spotPrice = spot.get(new SpotPrices.Key(name, zone));
        if (spotSupported && spotPrice != null) {
          offerings.add(new Offering(zone, WellKnown.CAPACITY_SPOT, spotPrice, true));
        }
      }
      var network = info.networkInfo();
      int maxEnis = network == null ? 1 : network.hasNetworkCards() && !network.networkCards().isEmpty()
          && network.networkCards().getFirst().maximumNetworkInterfaces() != null
          ? network.networkCards().getFirst().maximumNetworkInterfaces()
          : network.maximumNetworkInterfaces() == null ? 1 : network.maximumNetworkInterfaces();
      int ipv4 = network == null || network.ipv4AddressesPerInterface() == null ? 1 : network.ipv4AddressesPerInterface();
      var gpus = info.gpuInfo() == null || !info.gpuInfo().hasGpus() || info.gpuInfo().gpus().isEmpty() ? null : info.gpuInfo().gpus().getFirst();
      types.put(name, new InstanceType(name, arch,
          info.vCpuInfo() == null ? 0 : info.vCpuInfo().defaultVCpus(),
          info.memoryInfo() == null ? 0 : info.memoryInfo().sizeInMiB(),
          gpus == null || gpus.count() == null ? 0 : gpus.count(),
          gpus == null ? "" : String.valueOf(gpus.manufacturer()),
          gpus == null ? "" : String.valueOf(gpus.name()),
          maxEnis, ipv4, Boolean.TRUE.equals(info.bareMetal()), offerings, Ec2InstanceFacts.of(info)));
    }
    return List.copyOf(types.values());
  }

  private static String architecture(InstanceTypeInfo info) {
    if (info.processorInfo() == null) {
      return null;
    }
    List<String> archs = info.processorInfo().supportedArchitecturesAsStrings();
    return archs.contains("x86_64") ? "x86_64" : archs.contains("arm64") ? "arm64" : null;
  }

  private List<InstanceTypeInfo> describeInstanceTypes() {
    List<InstanceTypeInfo> all = new ArrayList<>();
    String token = null;
    do {
      String next = token;
      DescribeInstanceTypesResponse page;
      try {
        page = ec2.describeInstanceTypes(b -> b.maxResults(100).nextToken(next));
      } catch (SdkException e) {
        throw Ec2Errors.map("DescribeInstanceTypes", e);
      }
      all.addAll(page.instanceTypes());
      token = page.nextToken();
    } while (token != null && !token.isEmpty());
    return all;
  }

  private Map<String, Set<String>> offerings() {
    Map<String, Set<String>> zonesByType = new HashMap<>();
    String token = null;
    do {
      String next = token;
      DescribeInstanceTypeOfferingsResponse page;
      try {
        page = ec2.describeInstanceTypeOfferings(b -> b.locationType(LocationType.AVAILABILITY_ZONE).maxResults(1000).nextToken(next));
      } catch (SdkException e) {
        throw Ec2Errors.map("DescribeInstanceTypeOfferings", e);
      }
      page.instanceTypeOfferings().forEach(o -> zonesByType.computeIfAbsent(o.instanceTypeAsString(), t -> new TreeSet<>()).add(o.location()));
      token = page.nextToken();
    } while (token != null && !token.isEmpty());
    return zonesByType;
  }
}
