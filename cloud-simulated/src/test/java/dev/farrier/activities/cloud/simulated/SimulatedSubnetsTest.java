package dev.farrier.activities.cloud.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.AmiSelectorTerm;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.activities.cloud.MutableClock;
import dev.farrier.activities.cloud.NodeClassLaunch;
import dev.farrier.activities.cloud.Subnet;
import dev.farrier.activities.cloud.SubnetTerm;
import dev.farrier.activities.crd.ResolvedSubnet;
import dev.farrier.model.WellKnown;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Subnets chosen by free addresses, as karpenter-provider-aws chooses them, with addresses held by live instances. */
class SimulatedSubnetsTest {
  private static final String CLUSTER = "sandbox";
  private static final String ZONE = "us-east-1a";

  @TempDir
  Path stateDir;

  private MutableClock clock;
  private SimulatedCloud cloud;

  @BeforeEach
  void setUp() {
    clock = new MutableClock(Instant.parse("2026-01-05T10:00:00Z"));
    cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(stateDir).withClock(clock).withDelays(Duration.ofSeconds(2), Duration.ofSeconds(5)));
  }

  private Instance launch(String claim, List<Subnet> subnets) {
    var images = cloud.resolveImages(List.of(new AmiSelectorTerm(null, null, null, Map.of(), "al2023@latest")));
    var launch = new NodeClassLaunch("AL2023", subnets.stream().map(s -> new ResolvedSubnet(s.id(), s.zone(), s.zoneId())).toList(),
        List.of("sg-1"), "profile", null, null, null, List.of(), Map.of());
    return cloud.create(new LaunchRequest(CLUSTER, claim, "default", "default", List.of("m5.large"), List.of("on-demand"), List.of(ZONE),
        images, Map.of(WellKnown.TAG_OWNER, "farrier", WellKnown.TAG_CLUSTER, CLUSTER, WellKnown.TAG_NODECLAIM, claim,
            WellKnown.TAG_NODEPOOL, "default"), Map.of(), List.of(), launch));
  }

  private Subnet derivedSubnetIn(String zone) {
    return cloud.network().subnets().stream().filter(s -> s.zone().equals(zone)).findFirst().orElseThrow();
  }

  private int free(String subnetId) {
    return cloud.resolveSubnets(List.of(new SubnetTerm(subnetId, null))).getFirst().availableIps();
  }

  @Test
  void theSubnetWithTheMostFreeAddressesInTheZoneIsChosenOnSimulatedCloud() {
    Subnet roomy = cloud.addSubnet(ZONE, 20_000, Map.of("Name", "roomy"));
    Subnet derived = derivedSubnetIn(ZONE);

    Instance instance = launch("claim-roomy", List.of(derived, roomy));
    assertEquals(roomy.id(), instance.subnetId(), "20,000 free beats " + SimulatedNetwork.AVAILABLE_IPS);
    assertEquals(19_999, free(roomy.id()), "the instance holds one address");
    assertEquals(SimulatedNetwork.AVAILABLE_IPS, free(derived.id()));
  }

  @Test
  void anExhaustedSubnetIsSkippedAndItsAddressComesBackWhenTheInstanceIsTerminatedOnSimulatedCloud() {
    Subnet tiny = cloud.addSubnet(ZONE, 1, Map.of("Name", "tiny"));
    Instance first = launch("claim-1", List.of(tiny));
    assertEquals(tiny.id(), first.subnetId());
    assertEquals(0, free(tiny.id()));

    var exhausted = assertThrows(CloudProviderException.class, () -> launch("claim-2", List.of(tiny)));
    assertEquals(CloudProviderException.Kind.INSUFFICIENT_CAPACITY, exhausted.kind());
    assertTrue(exhausted.getMessage().contains("no free IP address in the subnets of [" + ZONE + "]"), exhausted.getMessage());

    Subnet derived = derivedSubnetIn(ZONE);
    Subnet full = cloud.addSubnet(ZONE, 0, Map.of("Name", "full"));
    assertEquals(derived.id(), launch("claim-3", List.of(tiny, full, derived)).subnetId(), "only the derived subnet has room");

    cloud.delete(CLUSTER, "claim-1", first.id());
    assertEquals(0, free(tiny.id()), "a shutting-down instance still holds its address");
    clock.advance(Duration.ofSeconds(6));
    assertEquals(1, free(tiny.id()));
    assertEquals(tiny.id(), launch("claim-4", List.of(tiny)).subnetId());
  }
}
