package dev.farrier.activities.cloud.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.CapacityReservation;
import dev.farrier.activities.cloud.CapacityReservationTerm;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.activities.cloud.MutableClock;
import dev.farrier.activities.cloud.NodeClassLaunch;
import dev.farrier.model.WellKnown;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulated cloud's capacity reservations: counted, consumed by launches, given back by terminations, ended. */
class SimulatedCapacityReservationsTest {
  private static final String CLUSTER = "sandbox";

  @TempDir
  Path stateDir;

  private ClockedCloud fixture;
  private MutableClock clock;
  private SimulatedCloud cloud;
  private List<Image> images;

  @BeforeEach
  void setUp() {
    fixture = ClockedCloud.start(stateDir);
    clock = fixture.clock();
    cloud = fixture.cloud();
    images = fixture.images();
  }

  private LaunchRequest request(String claim, List<String> capacityTypes, CapacityReservation reservation) {
    return new LaunchRequest(CLUSTER, claim, "default", "default", List.of("m5.xlarge"), capacityTypes, List.of(), images,
        Map.of(WellKnown.TAG_OWNER, "farrier", WellKnown.TAG_CLUSTER, CLUSTER, WellKnown.TAG_NODECLAIM, claim,
            WellKnown.TAG_NODEPOOL, "default"),
        Map.of(WellKnown.NODEPOOL_LABEL, "default"), List.of(), NodeClassLaunch.NONE, List.of(reservation));
  }

  private int available(String id) {
    return cloud.resolveCapacityReservations(List.of(CapacityReservationTerm.byId(id))).getFirst().availableInstanceCount();
  }

  @Test
  void aLaunchTakesOneFromTheReservationATerminationGivesItBackAndAFullOneFallsBackToOnDemand() {
    CapacityReservation reservation = cloud.createCapacityReservation("m5.xlarge", "us-east-1b", 2, CapacityReservation.DEFAULT, null,
        Map.of("team", "ml"));
    assertEquals(2, available(reservation.id()));

    Instance first = cloud.create(request("claim-1", List.of("reserved", "on-demand"), reservation));
    Instance second = cloud.create(request("claim-2", List.of("reserved", "on-demand"), reservation));
    Instance third = cloud.create(request("claim-3", List.of("reserved", "on-demand"), reservation));

    assertEquals(List.of("reserved", "reserved", "on-demand"), List.of(first.capacityType(), second.capacityType(), third.capacityType()));
    assertEquals(reservation.id(), first.capacityReservationId());
    assertEquals("us-east-1b", first.zone());
    assertTrue(first.pricePerHour() < 0.001, "a reserved instance is paid for already: " + first.pricePerHour());
    assertEquals(null, third.capacityReservationId());
    assertEquals(0, available(reservation.id()));
    var onlyReserved = assertThrows(CloudProviderException.class,
        () -> cloud.create(request("claim-4", List.of("reserved"), reservation)));
    assertEquals(CloudProviderException.Kind.INSUFFICIENT_CAPACITY, onlyReserved.kind());

    cloud.delete(CLUSTER, "claim-1", first.id());
    clock.advance(Duration.ofSeconds(6));
    assertEquals(1, available(reservation.id()), "a terminated instance gives its slot back");
    assertEquals("reserved", cloud.create(request("claim-4", List.of("reserved"), reservation)).capacityType());
  }

  @Test
  void termsSelectByIdOrByTagsAndMatchCriteriaAndAnOwnerAloneSelectsNothing() {
    CapacityReservation ml = cloud.createCapacityReservation("m5.xlarge", "us-east-1a", 1, CapacityReservation.DEFAULT, null, Map.of("team", "ml"));
    CapacityReservation web = cloud.createCapacityReservation("c5.large", "us-east-1a", 1, CapacityReservation.DEFAULT, null, Map.of("team", "web"));

    assertEquals(List.of(web.id()), ids(List.of(CapacityReservationTerm.byId(web.id()))));
    assertEquals(List.of(ml.id()), ids(List.of(new CapacityReservationTerm(null, SimulatedCloud.OWNER_ID, Map.of("team", "ml"), null))));
    assertEquals(List.of(ml.id(), web.id()).stream().sorted().toList(),
        ids(List.of(new CapacityReservationTerm(null, null, Map.of("team", "*"), "targeted"))));
    assertEquals(List.of(), ids(List.of(new CapacityReservationTerm(null, null, Map.of(), "open"))));
    assertEquals(List.of(), ids(List.of(new CapacityReservationTerm(null, SimulatedCloud.OWNER_ID, Map.of(), null))));
  }

  @Test
  void anEndingCapacityBlockIsExpiringItsInstancesAreReclaimedAndItTakesNoNewLaunch() {
    CapacityReservation block = cloud.createCapacityReservation("m5.xlarge", "us-east-1a", 2, CapacityReservation.CAPACITY_BLOCK,
        clock.instant().plus(Duration.ofDays(1)), Map.of());
    Instance inBlock = cloud.create(request("claim-1", List.of("reserved"), block));
    clock.advance(Duration.ofSeconds(3));
    assertEquals(CapacityReservation.ACTIVE, cloud.resolveCapacityReservations(List.of(CapacityReservationTerm.byId(block.id()))).getFirst().state());

    var end = cloud.expireCapacityBlock(block.id(), Duration.ofMinutes(2));

    assertEquals(List.of(inBlock.id()), end.instances().stream().map(Instance::id).toList());
    CapacityReservation now = cloud.resolveCapacityReservations(List.of(CapacityReservationTerm.byId(block.id()))).getFirst();
    assertEquals(CapacityReservation.EXPIRING, now.state());
    var refused = assertThrows(CloudProviderException.class, () -> cloud.create(request("claim-2", List.of("reserved"),
        new CapacityReservation(block.id(), "m5.xlarge", "us-east-1a", SimulatedCloud.OWNER_ID, "targeted", "capacity-block", false, null,
            CapacityReservation.UNKNOWN_COUNT, CapacityReservation.ACTIVE))));
    assertEquals(CloudProviderException.Kind.INSUFFICIENT_CAPACITY, refused.kind(), "an expiring block takes no launch");
    clock.advance(Duration.ofMinutes(3));
    assertEquals("terminated", cloud.get(inBlock.id()).orElseThrow().state());
  }

  private List<String> ids(List<CapacityReservationTerm> terms) {
    return cloud.resolveCapacityReservations(terms).stream().map(CapacityReservation::id).toList();
  }
}
