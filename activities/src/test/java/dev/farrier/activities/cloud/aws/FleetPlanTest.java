package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.Offering;
import dev.farrier.activities.crd.ResolvedSubnet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The overrides one CreateFleet asks for, from a made-up catalogue: the plan reads only names, architectures and
 * offerings, and the real one (module catalog, the simulated cloud's data) is built on this module, not under it.
 */
class FleetPlanTest {
  private static final List<String> ZONES = List.of("us-east-1a", "us-east-1b", "us-east-1c");
  /** m5.large at its us-east-1 price, and 40 more types (every other one arm64) priced out of name order. */
  private static final Map<String, InstanceType> TYPES = types();
  private static final List<ResolvedSubnet> SUBNETS = List.of(new ResolvedSubnet("subnet-b", "us-east-1b", null),
      new ResolvedSubnet("subnet-a", "us-east-1a", null), new ResolvedSubnet("subnet-a2", "us-east-1a", null));
  private static final List<Image> IMAGES = List.of(new Image("ami-x86", "x", "x86_64", "amazon", "1.34", null, Instant.EPOCH),
      new Image("ami-arm", "a", "arm64", "amazon", "1.34", null, Instant.EPOCH));

  @Test
  void overridesAreTypeTimesOneSubnetPerZoneCheapestFirstAndCappedAtSixty() {
    List<String> ranked = List.copyOf(TYPES.keySet());
    var plan = FleetPlan.plan(ranked, TYPES, List.of("on-demand"), SUBNETS, List.of(), IMAGES);
    assertEquals("on-demand", plan.capacityType());
    assertEquals(FleetPlan.MAX_OVERRIDES, plan.overrides().size(), "41 types in 2 zones offer 82");
    for (int i = 1; i < plan.overrides().size(); i++) {
      assertEquals(true, plan.overrides().get(i - 1).pricePerHour() <= plan.overrides().get(i).pricePerHour());
    }
    assertEquals(List.of("subnet-a", "subnet-b"), plan.overrides().stream().map(FleetPlan.Override::subnetId).distinct().sorted().toList(),
        "one subnet per zone");
    assertEquals("ami-arm", plan.imageByType().get(plan.overrides().stream().filter(o -> o.arch().equals("arm64")).findFirst().orElseThrow().instanceType()).id());
  }

  @Test
  void spotIsPreferredWhenAllowedAndUnavailableOfferingsAndZonesOutsideTheRequestAreSkipped() {
    var m5 = TYPES.get("m5.large");
    var withSpotGoneInA = m5.withOfferings(
        m5.offerings().stream().map(o -> new Offering(o.zone(), o.capacityType(), o.pricePerHour(),
            !(o.zone().equals("us-east-1a") && o.capacityType().equals("spot")))).toList());
    var plan = FleetPlan.plan(List.of("m5.large"), Map.of("m5.large", withSpotGoneInA), List.of("spot", "on-demand"), SUBNETS,
        List.of(), IMAGES);
    assertEquals("spot", plan.capacityType());
    assertEquals(List.of("us-east-1b"), plan.overrides().stream().map(FleetPlan.Override::zone).toList());

    var zoneA = FleetPlan.plan(List.of("m5.large"), TYPES, List.of("on-demand"), SUBNETS, List.of("us-east-1a"), IMAGES);
    assertEquals(List.of("subnet-a"), zoneA.overrides().stream().map(FleetPlan.Override::subnetId).toList());
  }

  @Test
  void eachZoneUsesItsSubnetWithTheMostFreeAddressesAndNeverAnExhaustedOne() {
    var emptier = FleetPlan.plan(List.of("m5.large"), TYPES, List.of("on-demand"), SUBNETS, Map.of("subnet-a", 10, "subnet-a2", 900,
        "subnet-b", 5), List.of(), IMAGES);
    assertEquals(List.of("subnet-a2", "subnet-b"), emptier.overrides().stream().map(FleetPlan.Override::subnetId).sorted().toList());

    var bExhausted = FleetPlan.plan(List.of("m5.large"), TYPES, List.of("on-demand"), SUBNETS, Map.of("subnet-b", 0), List.of(), IMAGES);
    assertEquals(List.of("subnet-a"), bExhausted.overrides().stream().map(FleetPlan.Override::subnetId).toList(),
        "unknown counts rank after known ones, ties by id; the exhausted zone drops out");

    var none = assertThrows(CloudProviderException.class, () -> FleetPlan.plan(List.of("m5.large"), TYPES, List.of("on-demand"), SUBNETS,
        Map.of("subnet-a", 0, "subnet-a2", 0), List.of("us-east-1a"), IMAGES));
    assertEquals(CloudProviderException.Kind.INSUFFICIENT_CAPACITY, none.kind());
  }

  @Test
  void noAvailableOfferingIsInsufficientCapacityAndNoFittingTypeIsInvalid() {
    var m5 = TYPES.get("m5.large");
    var allGone = m5.withOfferings(
        m5.offerings().stream().map(o -> new Offering(o.zone(), o.capacityType(), o.pricePerHour(), false)).toList());
    var capacity = assertThrows(CloudProviderException.class,
        () -> FleetPlan.plan(List.of("m5.large"), Map.of("m5.large", allGone), List.of("on-demand"), SUBNETS, List.of(), IMAGES));
    assertEquals(CloudProviderException.Kind.INSUFFICIENT_CAPACITY, capacity.kind());
    var unknown = assertThrows(CloudProviderException.class,
        () -> FleetPlan.plan(List.of("x9.huge"), TYPES, List.of("on-demand"), SUBNETS, List.of(), IMAGES));
    assertEquals(CloudProviderException.Kind.INVALID_REQUEST, unknown.kind());
    var noSubnet = assertThrows(CloudProviderException.class,
        () -> FleetPlan.plan(List.of("m5.large"), TYPES, List.of("on-demand"), SUBNETS, List.of("us-east-1c"), IMAGES));
    assertEquals(CloudProviderException.Kind.INVALID_REQUEST, noSubnet.kind());
  }

  @Test
  void theFleetTagsWhatCreateFleetCanTagAndTheSpotRequestOnlyForSpot() {
    var tags = List.of(software.amazon.awssdk.services.ec2.model.Tag.builder().key("farrier.dev/owner").value("farrier").build());

    assertEquals(List.of("fleet", "instance", "volume"),
        FleetLauncher.tagSpecifications(tags, false).stream().map(t -> t.resourceTypeAsString()).toList());
    assertEquals(List.of("fleet", "instance", "volume", "spot-instances-request"),
        FleetLauncher.tagSpecifications(tags, true).stream().map(t -> t.resourceTypeAsString()).toList());
  }

  private static Map<String, InstanceType> types() {
    Map<String, InstanceType> types = new TreeMap<>();
    types.put("m5.large", type("m5.large", "x86_64", 0.096));
    for (int i = 1; i <= 40; i++) {
      String name = i % 2 == 0 ? "x" + i + "g.large" : "x" + i + ".large";
      types.put(name, type(name, i % 2 == 0 ? "arm64" : "x86_64", 0.01 * (i * 17 % 41 + 1)));
    }
    return types;
  }

  /** On-demand at one price in every zone; spot at 30, 40 and 50% of it, a zone apart. */
  private static InstanceType type(String name, String arch, double onDemand) {
    List<Offering> offerings = new ArrayList<>();
    for (int zone = 0; zone < ZONES.size(); zone++) {
      offerings.add(new Offering(ZONES.get(zone), "on-demand", onDemand, true));
      offerings.add(new Offering(ZONES.get(zone), "spot", onDemand * (0.3 + 0.1 * zone), true));
    }
    return new InstanceType(name, arch, 2, 8192, 0, "", "", 3, 10, false, 0, offerings);
  }
}
