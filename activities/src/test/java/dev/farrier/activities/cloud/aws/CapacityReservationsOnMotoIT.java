package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.CapacityReservationTerm;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.model.WellKnown;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.model.CapacityReservationPreference;
import software.amazon.awssdk.services.ec2.model.CreateFleetRequest;
import software.amazon.awssdk.services.ec2.model.CreateFleetResponse;
import software.amazon.awssdk.services.ec2.model.CreateLaunchTemplateRequest;
import software.amazon.awssdk.services.ec2.model.CreateLaunchTemplateResponse;
import software.amazon.awssdk.services.ec2.model.DefaultTargetCapacityType;
import software.amazon.awssdk.services.ec2.model.DescribeCapacityReservationsRequest;
import software.amazon.awssdk.services.ec2.model.DescribeCapacityReservationsResponse;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.MarketType;

/**
 * Capacity reservations on AWS. moto 5.2.5 has no DescribeCapacityReservations or CreateCapacityReservation (its EC2
 * responses know capacity reservations only as a launch template field), so DescribeCapacityReservations is faked here
 * as EC2 answers it, and CreateFleet and CreateLaunchTemplate are recorded on their way to moto (a Capacity Block's
 * {@code capacity-block} target capacity type, which moto does not take, reaches moto as on-demand); every other call is
 * moto's.
 */
class CapacityReservationsOnMotoIT extends MotoIT {
  private static final String ODCR = "cr-0aaaaaaaaaaaaaaa1";
  private static final String BLOCK = "cr-0bbbbbbbbbbbbbbb2";

  private final List<DescribeCapacityReservationsRequest> describes = new ArrayList<>();
  private final List<CreateFleetRequest> fleets = new ArrayList<>();
  private final List<CreateLaunchTemplateRequest> templates = new ArrayList<>();

  private Ec2Api recording(Ec2Api real, String zone) {
    return new DelegatingEc2Api(real) {
      @Override
      public DescribeCapacityReservationsResponse describeCapacityReservations(DescribeCapacityReservationsRequest request) {
        describes.add(request);
        var odcr = software.amazon.awssdk.services.ec2.model.CapacityReservation.builder().capacityReservationId(ODCR)
            .instanceType("m5.xlarge").availabilityZone(zone).ownerId("123456789012").instanceMatchCriteria("targeted")
            .availableInstanceCount(2).state("active").tags(t -> t.key("team").value("ml")).build();
        var block = odcr.toBuilder().capacityReservationId(BLOCK).reservationType("capacity-block")
            .endDate(Instant.now().plusSeconds(20 * 60)).availableInstanceCount(1).build();
        var all = request.capacityReservationIds().isEmpty() ? List.of(odcr, block)
            : List.of(odcr, block).stream().filter(r -> request.capacityReservationIds().contains(r.capacityReservationId())).toList();
        return DescribeCapacityReservationsResponse.builder().capacityReservations(all).build();
      }

      @Override
      public CreateFleetResponse createFleet(CreateFleetRequest request) {
        fleets.add(request);
        return real.createFleet(request.toBuilder()
            .targetCapacitySpecification(request.targetCapacitySpecification().toBuilder()
                .defaultTargetCapacityType(DefaultTargetCapacityType.ON_DEMAND).build()).build());
      }

      @Override
      public CreateLaunchTemplateResponse createLaunchTemplate(CreateLaunchTemplateRequest request) {
        templates.add(request);
        return real.createLaunchTemplate(request);
      }
    };
  }

  /** A cluster's network in moto and a provider whose EC2 calls {@link #recording} sees. */
  private record Moto(String cluster, MotoNetwork network, String zone, AwsCloudProvider provider) {
    static Moto of(CapacityReservationsOnMotoIT test, String prefix) {
      String cluster = unique(prefix);
      MotoNetwork network = MotoNetwork.create(aws, cluster);
      String zone = network.subnets().getFirst().zone();
      return new Moto(cluster, network, zone, new AwsCloudProvider(aws, test.recording(Ec2Api.of(aws.ec2()), zone),
          AwsLaunchOnMotoIT.settings(cluster), () -> "1.34", Clock.systemUTC()));
    }
  }

  @Test
  void termsBecomeDescribeCapacityReservationsFiltersAndAnEndingCapacityBlockIsExpiring() {
    var on = Moto.of(this, "cr-terms");
    String cluster = on.cluster();
    MotoNetwork network = on.network();
    String zone = on.zone();
    var provider = on.provider();

    List<CapacityReservation> found = provider.resolveCapacityReservations(List.of(CapacityReservationTerm.byId(ODCR),
        new CapacityReservationTerm(null, "123456789012", Map.of("team", "ml", "env", "*"), "targeted"),
        new CapacityReservationTerm(null, "123456789012", Map.of(), null)));

    assertEquals(2, describes.size(), "an owner alone queries nothing, as karpenter-provider-aws");
    assertEquals(List.of(ODCR), describes.get(0).capacityReservationIds());
    assertNull(describes.get(0).maxResults(), "EC2 takes no MaxResults with ids");
    assertEquals(List.of(Filter.builder().name("state").values("active").build()), describes.get(0).filters());
    assertEquals(List.of(
        Filter.builder().name("state").values("active").build(),
        Filter.builder().name("owner-id").values("123456789012").build(),
        Filter.builder().name("tag-key").values("env").build(),
        Filter.builder().name("tag:team").values("ml").build(),
        Filter.builder().name("instance-match-criteria").values("targeted").build()), describes.get(1).filters());
    assertEquals(1000, describes.get(1).maxResults());
    assertEquals(List.of(ODCR, BLOCK), found.stream().map(CapacityReservation::id).toList(), "each once, by id");
    assertEquals(List.of("default/active/2", "capacity-block/expiring/1"),
        found.stream().map(r -> r.reservationType() + "/" + r.state() + "/" + r.availableInstanceCount()).toList(),
        "a Capacity Block 20 minutes from its end is expiring (40 minutes, as Karpenter)");
  }

  @Test
  void aReservedLaunchTargetsTheReservationThroughItsLaunchTemplateAndIsLabelledReserved() {
    var on = Moto.of(this, "cr-launch");
    String cluster = on.cluster();
    MotoNetwork network = on.network();
    String zone = on.zone();
    var provider = on.provider();
    var odcr = provider.resolveCapacityReservations(List.of(CapacityReservationTerm.byId(ODCR))).getFirst();
    var base = AwsLaunchOnMotoIT.request(cluster, unique("claim"), network, "AL2023", null, List.of("reserved", "on-demand"));
    var request = new LaunchRequest(base.cluster(), base.nodeClaim(), base.nodePool(), base.nodeClass(), List.of("m5.xlarge", "m5.large"),
        base.capacityTypes(), base.zones(), base.images(), base.tags(), base.nodeLabels(), base.nodeTaints(), base.launch(), List.of(odcr));

    Instance launched = provider.create(request);

    assertEquals(WellKnown.CAPACITY_RESERVED, launched.capacityType());
    assertEquals(ODCR, launched.capacityReservationId());
    assertEquals("m5.xlarge", launched.instanceType());
    assertEquals(zone, launched.zone());
    CreateFleetRequest fleet = fleets.getLast();
    assertEquals(DefaultTargetCapacityType.ON_DEMAND, fleet.targetCapacitySpecification().defaultTargetCapacityType(),
        "an On-Demand Capacity Reservation is on-demand capacity the template targets");
    var overrides = fleet.launchTemplateConfigs().stream().flatMap(c -> c.overrides().stream()).toList();
    assertEquals(1, overrides.size(), "one override: the reservation's type in its zone's subnet");
    assertEquals(network.subnets().getFirst().id(), overrides.getFirst().subnetId());
    var spec = templates.getLast().launchTemplateData().capacityReservationSpecification();
    assertEquals(CapacityReservationPreference.CAPACITY_RESERVATIONS_ONLY, spec.capacityReservationPreference());
    assertEquals(ODCR, spec.capacityReservationTarget().capacityReservationId());
    assertNull(templates.getLast().launchTemplateData().instanceMarketOptions());
    String userData = new String(java.util.Base64.getDecoder().decode(templates.getLast().launchTemplateData().userData()));
    assertTrue(userData.contains("karpenter.sh/capacity-type=reserved"), "the node registers as reserved");
    assertTrue(userData.contains(WellKnown.CAPACITY_RESERVATION_ID_LABEL + "=" + ODCR), userData);
  }

  @Test
  void aCapacityBlockLaunchAsksForCapacityBlockCapacityWithoutOnDemandOptions() {
    var on = Moto.of(this, "cr-block");
    String cluster = on.cluster();
    MotoNetwork network = on.network();
    String zone = on.zone();
    var provider = on.provider();
    var block = new CapacityReservation(BLOCK, "m5.xlarge", zone, "123456789012", "targeted", CapacityReservation.CAPACITY_BLOCK, false,
        Instant.now().plusSeconds(3600 * 24), 1, CapacityReservation.ACTIVE);
    var base = AwsLaunchOnMotoIT.request(cluster, unique("claim"), network, "AL2023", null, List.of("reserved"));
    var request = new LaunchRequest(base.cluster(), base.nodeClaim(), base.nodePool(), base.nodeClass(), List.of("m5.xlarge"),
        base.capacityTypes(), base.zones(), base.images(), base.tags(), base.nodeLabels(), base.nodeTaints(), base.launch(), List.of(block));

    Instance launched = provider.create(request);

    assertEquals(BLOCK, launched.capacityReservationId());
    assertEquals(DefaultTargetCapacityType.CAPACITY_BLOCK, fleets.getLast().targetCapacitySpecification().defaultTargetCapacityType());
    assertNull(fleets.getLast().onDemandOptions());
    assertEquals(MarketType.CAPACITY_BLOCK, templates.getLast().launchTemplateData().instanceMarketOptions().marketType());
  }
}
