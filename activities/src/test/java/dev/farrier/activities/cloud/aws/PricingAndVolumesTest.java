package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.ec2.model.SpotPrice;

class PricingAndVolumesTest {
  @Test
  void theLatestSpotPricePerTypeAndZoneWins() {
    var prices = SpotPrices.latest(List.of(
        SpotPrice.builder().instanceType("m5.large").availabilityZone("us-east-1a").spotPrice("0.030").timestamp(Instant.parse("2026-01-01T00:00:00Z")).build(),
        SpotPrice.builder().instanceType("m5.large").availabilityZone("us-east-1a").spotPrice("0.041").timestamp(Instant.parse("2026-01-02T00:00:00Z")).build(),
        SpotPrice.builder().instanceType("m5.large").availabilityZone("us-east-1b").spotPrice("0.020").timestamp(Instant.parse("2025-12-01T00:00:00Z")).build(),
        SpotPrice.builder().instanceType("m5.large").availabilityZone("us-east-1c").spotPrice("n/a").timestamp(Instant.parse("2025-12-01T00:00:00Z")).build()));
    assertEquals(0.041, prices.get(new SpotPrices.Key("m5.large", "us-east-1a")));
    assertEquals(0.020, prices.get(new SpotPrices.Key("m5.large", "us-east-1b")));
    assertFalse(prices.containsKey(new SpotPrices.Key("m5.large", "us-east-1c")));
  }

  @Test
  void onDemandPricesComeFromTheShippedTableOrAnOperatorsFile(@TempDir Path dir) throws IOException {
    assertTrue(OnDemandPrices.load("us-east-1", null).get("m5.large") > 0);
    Path file = dir.resolve("prices.csv");
    Files.writeString(file, "name,region,usd_per_hour\nm5.large,us-east-1,0.5\n");
    assertEquals(0.5, OnDemandPrices.load("us-east-1", file).get("m5.large"));
    assertThrows(IllegalArgumentException.class, () -> OnDemandPrices.load("eu-nowhere-1", file));
  }

  @Test
  void volumeSizesAreWholeGibibytes() {
    assertEquals(20, BlockDevices.gib("20Gi"));
    assertEquals(1, BlockDevices.gib("1G"));
    assertEquals(1024, BlockDevices.gib("1Ti"));
    assertThrows(IllegalArgumentException.class, () -> BlockDevices.gib("lots"));
  }

  @Test
  void anUnavailableOfferingComesBackAfterItsTtl() {
    var clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    var offerings = new UnavailableOfferings(clock);
    offerings.mark("m5.large", "us-east-1a", "spot", "InsufficientInstanceCapacity");
    assertTrue(offerings.isUnavailable("m5.large", "us-east-1a", "spot"));
    assertFalse(offerings.isUnavailable("m5.large", "us-east-1a", "on-demand"), "another capacity type is another pool");
    clock.advance(UnavailableOfferings.DEFAULT_TTL.minusSeconds(1));
    assertTrue(offerings.isUnavailable("m5.large", "us-east-1a", "spot"));
    clock.advance(Duration.ofSeconds(1));
    assertFalse(offerings.isUnavailable("m5.large", "us-east-1a", "spot"), "three minutes later EC2 is asked again");
  }
}
