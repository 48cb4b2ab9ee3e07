package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.Offering;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.model.CreateFleetError;
import software.amazon.awssdk.services.ec2.model.CreateFleetRequest;
import software.amazon.awssdk.services.ec2.model.CreateFleetResponse;
import software.amazon.awssdk.services.ec2.model.FleetLaunchTemplateOverridesRequest;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateAndOverridesResponse;

/**
 * moto never runs out of capacity, so CreateFleet alone is faked here: while "m5.large" is out of capacity, the
 * fake answers like EC2 does (no instance, one InsufficientInstanceCapacity error per override); every other call,
 * and CreateFleet for other types, goes to moto.
 */
class CapacityErrorsFromAFakeCreateFleetOnMotoIT extends MotoIT {
  @Test
  void anInsufficientCapacityFleetMarksItsOfferingsUnavailableAndTheNextLaunchTakesAnotherType() {
    String cluster = unique("capacity-it");
    MotoNetwork network = MotoNetwork.create(aws, cluster);
    Ec2Api real = Ec2Api.of(aws.ec2());
    List<CreateFleetRequest> fleets = new ArrayList<>();
    Ec2Api outOfM5Large = new DelegatingEc2Api(real) {
      @Override
      public CreateFleetResponse createFleet(CreateFleetRequest request) {
        fleets.add(request);
        var overrides = request.launchTemplateConfigs().stream().flatMap(c -> c.overrides().stream()).toList();
        if (overrides.stream().anyMatch(o -> !o.instanceTypeAsString().equals("m5.large"))) {
          return real.createFleet(request);
        }
        return CreateFleetResponse.builder().errors(overrides.stream().map(CapacityErrorsFromAFakeCreateFleetOnMotoIT::insufficient).toList()).build();
      }
    };
    var provider = new AwsCloudProvider(aws, outOfM5Large, AwsLaunchOnMotoIT.settings(cluster), () -> "1.34", Clock.systemUTC());
    var onlyM5Large = AwsLaunchOnMotoIT.request(cluster, unique("claim"), network, "AL2023", null, List.of("on-demand"));
    var m5LargeOnly = new dev.farrier.activities.cloud.LaunchRequest(onlyM5Large.cluster(), onlyM5Large.nodeClaim(), onlyM5Large.nodePool(),
        onlyM5Large.nodeClass(), List.of("m5.large"), onlyM5Large.capacityTypes(), onlyM5Large.zones(), onlyM5Large.images(),
        onlyM5Large.tags(), onlyM5Large.nodeLabels(), onlyM5Large.nodeTaints(), onlyM5Large.launch());

    var failure = assertThrows(CloudProviderException.class, () -> provider.create(m5LargeOnly));

    assertEquals(CloudProviderException.Kind.INSUFFICIENT_CAPACITY, failure.kind());
    assertFalse(failure.kind().retryable);
    assertTrue(failure.getMessage().contains("InsufficientInstanceCapacity"), failure.getMessage());
    var m5Large = provider.instanceTypes().stream().filter(t -> t.name().equals("m5.large")).findFirst().orElseThrow();
    for (String zone : List.of("us-east-1a", "us-east-1b")) {
      assertFalse(offering(m5Large.offerings(), zone, "on-demand").available(), zone + " on-demand is marked unavailable");
      assertTrue(offering(m5Large.offerings(), zone, "spot").available(), "spot is another pool");
    }

    var again = assertThrows(CloudProviderException.class, () -> provider.create(m5LargeOnly));
    assertEquals(CloudProviderException.Kind.INSUFFICIENT_CAPACITY, again.kind());
    assertEquals(1, fleets.size(), "while m5.large is marked unavailable, no CreateFleet asks for it again");

    Instance next = provider.create(AwsLaunchOnMotoIT.request(cluster, unique("claim"), network, "AL2023", null, List.of("on-demand")));
    assertEquals("m5.xlarge", next.instanceType(), "the next launch skips the unavailable offerings");
    var asked = fleets.getLast().launchTemplateConfigs().stream().flatMap(c -> c.overrides().stream())
        .map(FleetLaunchTemplateOverridesRequest::instanceTypeAsString).distinct().toList();
    assertEquals(List.of("m5.xlarge"), asked);
  }

  private static Offering offering(List<Offering> offerings, String zone, String capacityType) {
    return offerings.stream().filter(o -> o.zone().equals(zone) && o.capacityType().equals(capacityType)).findFirst().orElseThrow();
  }

  private static CreateFleetError insufficient(FleetLaunchTemplateOverridesRequest o) {
    return CreateFleetError.builder().errorCode("InsufficientInstanceCapacity")
        .errorMessage("We currently do not have sufficient m5.large capacity in the Availability Zone you requested.")
        .launchTemplateAndOverrides(LaunchTemplateAndOverridesResponse.builder()
            .overrides(b -> b.instanceType(o.instanceTypeAsString()).subnetId(o.subnetId())).build())
        .build();
  }
}
