package dev.farrier.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.Offering;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class InstanceTypeCatalogTest {
  private static InstanceTypeCatalog catalog;

  @BeforeAll
  static void load() {
    catalog = InstanceTypeCatalog.load("us-east-1");
  }

  @Test
  void keepsPricedX86AndArmTypesOfferedInTheRegion() {
    // Counted from the CSVs: arch x86_64, arm64 or i386|x86_64, priced and offered in us-east-1.
    assertEquals(1345, catalog.instanceTypes().size());
    assertEquals(396, catalog.instanceTypes().stream().filter(t -> t.arch().equals("arm64")).count());
    assertEquals(6281 + 6191, catalog.instanceTypes().stream().mapToInt(t -> t.offerings().size()).sum());
    assertEquals(List.of("us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d", "us-east-1e", "us-east-1f"), catalog.zones());
    assertTrue(catalog.instanceTypes().stream().allMatch(t -> Set.of("x86_64", "arm64").contains(t.arch())));
    assertTrue(catalog.find("mac2.metal").isEmpty(), "mac types are skipped");
  }

  @Test
  void m5LargeHasItsSpecsPriceAndMaxPods() {
    InstanceType m5 = catalog.find("m5.large").orElseThrow();
    assertEquals("x86_64", m5.arch());
    assertEquals("amd64", m5.kubernetesArch());
    assertEquals(2, m5.vcpu());
    assertEquals(8192, m5.memoryMiB());
    assertEquals(29, m5.eniMaxPods());
    Set<String> zones = m5.offerings().stream().map(Offering::zone).collect(Collectors.toSet());
    assertEquals(Set.of("us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d", "us-east-1f"), zones);
    assertTrue(m5.offerings().stream().filter(o -> o.capacityType().equals("on-demand")).allMatch(o -> o.pricePerHour() == 0.096));
    assertEquals(5, m5.offerings().stream().filter(o -> o.capacityType().equals("spot")).count());
  }

  @Test
  void typesWithInstanceStorageCarryItsTotalSize() {
    assertEquals(75, catalog.find("m5d.large").orElseThrow().instanceStoreGb(), "one 75 GB NVMe disk");
    assertEquals(15200, catalog.find("i3.16xlarge").orElseThrow().instanceStoreGb(), "eight 1,900 GB NVMe disks");
    assertEquals(0, catalog.find("m5.large").orElseThrow().instanceStoreGb(), "EBS only");
  }

  @Test
  void armTypesAndOldI386TypesAreMapped() {
    InstanceType m6g = catalog.find("m6g.large").orElseThrow();
    assertEquals("arm64", m6g.arch());
    assertTrue(m6g.offerings().stream().filter(o -> o.capacityType().equals("on-demand")).allMatch(o -> o.pricePerHour() == 0.077));
    assertEquals("x86_64", catalog.find("t2.micro").orElseThrow().arch());
  }

  @Test
  void maxPodsUseTheDefaultNetworkCardsEnis() {
    assertEquals(737, catalog.find("p4d.24xlarge").orElseThrow().eniMaxPods());
    assertEquals(4, catalog.find("t3.micro").orElseThrow().eniMaxPods());
  }

  @Test
  void spotOfferingsOnlyWhereTheTypeSupportsSpot() {
    InstanceType onDemandOnly = catalog.find("c8ine.large").orElseThrow();
    assertTrue(onDemandOnly.offerings().stream().noneMatch(o -> o.capacityType().equals("spot")));
  }

  @Test
  void spotPricesAreADeterministicFractionBetween30And70Percent() {
    for (InstanceType type : catalog.instanceTypes()) {
      double onDemand = type.offerings().stream().filter(o -> o.capacityType().equals("on-demand")).findFirst().orElseThrow().pricePerHour();
      for (Offering spot : type.offerings().stream().filter(o -> o.capacityType().equals("spot")).toList()) {
        double fraction = DeterministicSpotPrice.fraction(type.name(), spot.zone());
        assertTrue(fraction >= 0.30 && fraction < 0.70, type.name() + " " + fraction);
        assertEquals(Math.round(onDemand * fraction * 1e6) / 1e6, spot.pricePerHour(), type.name() + "/" + spot.zone());
      }
    }
    assertEquals(DeterministicSpotPrice.fraction("m5.large", "us-east-1a"), DeterministicSpotPrice.fraction("m5.large", "us-east-1a"));
    assertNotEquals(DeterministicSpotPrice.fraction("m5.large", "us-east-1a"), DeterministicSpotPrice.fraction("m5.large", "us-east-1b"));
    double again = InstanceTypeCatalog.load("us-east-1").find("m5.large").orElseThrow().offerings().stream()
        .filter(o -> o.capacityType().equals("spot") && o.zone().equals("us-east-1c")).findFirst().orElseThrow().pricePerHour();
    double first = catalog.find("m5.large").orElseThrow().offerings().stream()
        .filter(o -> o.capacityType().equals("spot") && o.zone().equals("us-east-1c")).findFirst().orElseThrow().pricePerHour();
    assertEquals(first, again);
  }

  @Test
  void aRegionWithoutPricesFailsClearly() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InstanceTypeCatalog.load("us-west-2"));
    assertTrue(e.getMessage().contains("us-west-2") && e.getMessage().contains("us-east-1"), e.getMessage());
  }
}
