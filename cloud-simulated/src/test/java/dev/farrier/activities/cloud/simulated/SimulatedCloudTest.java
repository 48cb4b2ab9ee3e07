package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.MutableClock;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.ImageVariant;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.LaunchRequest;
import dev.farrier.activities.cloud.NodeClassLaunch;
import dev.farrier.activities.cloud.Offering;
import dev.farrier.activities.cloud.simulated.CloudCall.Operation;
import dev.farrier.activities.crd.ResolvedSubnet;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulatedCloudTest {
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
    assertEquals(5, images.size(), "al2023's standard and NVIDIA images of both architectures and its x86_64 Neuron image");
  }

  private SimulatedCloudConfig config() {
    return fixture.config();
  }

  private LaunchRequest request(String claim, List<String> types, List<String> capacityTypes, List<String> zones) {
    return new LaunchRequest(CLUSTER, claim, "default", "default", types, capacityTypes, zones, images,
        Map.of(WellKnown.TAG_OWNER, "farrier", WellKnown.TAG_CLUSTER, CLUSTER, WellKnown.TAG_NODECLAIM, claim,
            WellKnown.TAG_NODEPOOL, "default"),
        Map.of(WellKnown.NODEPOOL_LABEL, "default", "team", "blue"),
        List.of(new Taint("dedicated", "blue", "NoSchedule")));
  }

  private LaunchRequest onDemand(String claim, String type) {
    return request(claim, List.of(type), List.of("on-demand"), List.of("us-east-1a", "us-east-1b"));
  }

  @Test
  void theCallLogRecordsTheClassesPublicIpMonitoringAndInstanceStoreSettings() {
    LaunchRequest base = onDemand("claim-settings", "m5d.large");
    var settings = new NodeClassLaunch("AL2023", List.of(), List.of("sg-1"), "profile", null, null, null, List.of(), Map.of(),
        dev.farrier.planner.KubeletSettings.DEFAULTS, "RAID0", true, false);
    cloud.create(new LaunchRequest(base.cluster(), base.nodeClaim(), base.nodePool(), base.nodeClass(), base.instanceTypes(),
        base.capacityTypes(), base.zones(), base.images(), base.tags(), base.nodeLabels(), base.nodeTaints(), settings));
    cloud.create(onDemand("claim-defaults", "m5d.large"));

    String detail = cloud.calls().read(Operation.CREATE).getFirst().detail();
    assertTrue(detail.endsWith(" associatePublicIPAddress=true detailedMonitoring=false instanceStorePolicy=RAID0"), detail);
    String defaults = cloud.calls().read(Operation.CREATE).getLast().detail();
    assertFalse(defaults.contains("associatePublicIPAddress") || defaults.contains("detailedMonitoring") || defaults.contains("instanceStorePolicy"),
        defaults);
  }

  @Test
  void theCallLogRecordsTheClassesNetworkInterfaceCpuVolumeAndFleetSettings() {
    LaunchRequest base = onDemand("claim-knobs", "m5d.large");
    var fromSnapshot = new dev.farrier.activities.crd.BlockDeviceMapping("/dev/xvdb", new dev.farrier.activities.crd.BlockDevice(true, true,
        null, null, "snap-0123456789abcdef0", null, null, "gp3", 200), null);
    var settings = new NodeClassLaunch("AL2023", List.of(), List.of("sg-1"), "profile", null, null, null, List.of(fromSnapshot), Map.of(),
        dev.farrier.planner.KubeletSettings.DEFAULTS, null, null, null, new dev.farrier.activities.crd.ConnectionTracking(600, null, 45), 2,
        new dev.farrier.activities.crd.CpuOptions("enabled"), "cr-context");
    cloud.create(new LaunchRequest(base.cluster(), base.nodeClaim(), base.nodePool(), base.nodeClass(), base.instanceTypes(),
        base.capacityTypes(), base.zones(), base.images(), base.tags(), base.nodeLabels(), base.nodeTaints(), settings));
    cloud.create(onDemand("claim-plain", "m5d.large"));

    String detail = cloud.calls().read(Operation.CREATE).getFirst().detail();
    assertTrue(detail.endsWith(" connectionTracking=600/null/45 ipPrefixCount=2 nestedVirtualization=enabled"
        + " volumeInitializationRate=/dev/xvdb:200 context=cr-context"), detail);
    String plain = cloud.calls().read(Operation.CREATE).getLast().detail();
    assertFalse(plain.contains("connectionTracking") || plain.contains("ipPrefixCount") || plain.contains("nestedVirtualization")
        || plain.contains("volumeInitializationRate") || plain.contains("context="), plain);
  }

  @Test
  void theNodeClassSubnetsBoundTheZones() {
    LaunchRequest base = request("claim-subnets", List.of("m5.large"), List.of("on-demand"), List.of());
    var inC = new NodeClassLaunch("AL2023", List.of(new ResolvedSubnet("subnet-c", "us-east-1c", null)), List.of("sg-1"), "profile",
        null, null, null, List.of(), Map.of());
    Instance instance = cloud.create(new LaunchRequest(base.cluster(), base.nodeClaim(), base.nodePool(), base.nodeClass(),
        base.instanceTypes(), base.capacityTypes(), base.zones(), base.images(), base.tags(), base.nodeLabels(), base.nodeTaints(), inC));
    assertEquals("us-east-1c", instance.zone(), "us-east-1a is cheaper but has no subnet");

    LaunchRequest elsewhere = request("claim-elsewhere", List.of("m5.large"), List.of("on-demand"), List.of("us-east-1a"));
    var failure = assertThrows(CloudProviderException.class, () -> cloud.create(new LaunchRequest(elsewhere.cluster(), elsewhere.nodeClaim(),
        elsewhere.nodePool(), elsewhere.nodeClass(), elsewhere.instanceTypes(), elsewhere.capacityTypes(), elsewhere.zones(),
        elsewhere.images(), elsewhere.tags(), elsewhere.nodeLabels(), elsewhere.nodeTaints(), inC)));
    assertEquals(CloudProviderException.Kind.INSUFFICIENT_CAPACITY, failure.kind(), "the claim's zone has no subnet");
  }

  @Test
  void createLaunchesAPendingInstanceWithItsBootstrap() {
    Instance instance = cloud.create(onDemand("claim-a", "m5.large"));
    assertTrue(instance.id().matches("i-[0-9a-f]{17}"), instance.id());
    assertEquals("pending", instance.state());
    assertEquals("m5.large", instance.instanceType());
    assertEquals("us-east-1a", instance.zone());
    assertEquals("on-demand", instance.capacityType());
    assertEquals(0.096, instance.pricePerHour());
    assertEquals("aws:///us-east-1a/" + instance.id(), instance.providerId());
    assertTrue(instance.privateDnsName().matches("ip-10-\\d+-\\d+-\\d+\\.ec2\\.internal"), instance.privateDnsName());
    Image x86 = images.stream().filter(i -> i.arch().equals("x86_64") && i.variants().equals(List.of(ImageVariant.STANDARD)))
        .findFirst().orElseThrow();
    assertEquals(x86.id(), instance.imageId(), "the standard image: an m5.large has neither GPUs nor accelerators");

    SimulatedInstance simulated = cloud.instances().getFirst();
    assertEquals("on-demand", simulated.nodeLabels().get(WellKnown.CAPACITY_TYPE_LABEL));
    assertEquals("blue", simulated.nodeLabels().get("team"));
    assertEquals(List.of(new Taint("dedicated", "blue", "NoSchedule"), WellKnown.UNREGISTERED_TAINT), simulated.nodeTaints());
  }

  @Test
  void createIsIdempotentPerNodeClaim() {
    Instance first = cloud.create(onDemand("claim-a", "m5.large"));
    Instance retry = cloud.create(onDemand("claim-a", "m5.large"));
    Instance other = cloud.create(onDemand("claim-b", "m5.large"));
    assertEquals(first.id(), retry.id());
    assertFalse(other.id().equals(first.id()));
    assertFalse(other.privateDnsName().equals(first.privateDnsName()));
    assertEquals(1, cloud.calls().count(Operation.CREATE, "claim-a"));
    assertEquals(1, cloud.calls().count(Operation.CREATE_EXISTING, "claim-a"));
    assertEquals(List.of(Operation.CREATE, Operation.CREATE_EXISTING, Operation.CREATE),
        cloud.calls().read().stream().map(CloudCall::operation).toList());
    assertEquals(2, cloud.list(CLUSTER).size());
  }

  @Test
  void statesFollowTheClock() {
    Instance instance = cloud.create(onDemand("claim-a", "m5.large"));
    clock.advance(Duration.ofMillis(1999));
    assertEquals("pending", cloud.get(instance.id()).orElseThrow().state());
    clock.advance(Duration.ofMillis(1));
    assertEquals("running", cloud.get(instance.id()).orElseThrow().state());

    assertEquals("shutting-down", cloud.delete(CLUSTER, "claim-a", instance.id()).state());
    assertEquals(1, cloud.list(CLUSTER).size(), "a shutting-down instance still counts");
    clock.advance(Duration.ofSeconds(5));
    assertEquals("terminated", cloud.get(instance.id()).orElseThrow().state());
    assertTrue(cloud.list(CLUSTER).isEmpty());
    assertEquals("terminated", cloud.delete(CLUSTER, "claim-a", instance.id()).state(), "terminate again is done");
    assertEquals(1, cloud.calls().count(Operation.TERMINATE, "claim-a"));
    assertEquals(1, cloud.calls().count(Operation.TERMINATE_ALREADY_DONE, "claim-a"));

    Instance relaunched = cloud.create(onDemand("claim-a", "m5.large"));
    assertFalse(relaunched.id().equals(instance.id()), "a terminated instance is not reused");
  }

  @Test
  void aSpotInterruptionReclaimsTheInstanceAtItsDeadline() {
    Instance spot = cloud.create(request("claim-s", List.of("m5.large"), List.of("spot"), List.of("us-east-1a")));
    clock.advance(Duration.ofSeconds(2));
    assertThrows(CloudProviderException.class, () -> cloud.interruptSpot(
        cloud.create(onDemand("claim-od", "m5.large")).id(), Duration.ofMinutes(2)), "only spot instances are interrupted");

    var interruption = cloud.interruptSpot(spot.id(), Duration.ofMinutes(2));

    assertEquals(clock.instant().plus(Duration.ofMinutes(2)), interruption.reclaimAt());
    clock.advance(Duration.ofSeconds(119));
    assertEquals("running", cloud.get(spot.id()).orElseThrow().state(), "runs until the deadline");
    clock.advance(Duration.ofSeconds(1));
    assertEquals("shutting-down", new SimulatedCloud(config()).get(spot.id()).orElseThrow().state(),
        "the deadline is persisted: another process on the state directory sees it too");
    clock.advance(Duration.ofSeconds(5));
    assertEquals("terminated", cloud.get(spot.id()).orElseThrow().state());
    assertTrue(cloud.list(CLUSTER).stream().noneMatch(i -> i.id().equals(spot.id())));
    assertEquals(1, cloud.calls().count(Operation.SPOT_INTERRUPTION, "claim-s"));
  }

  @Test
  void anInterruptedInstanceTerminatedEarlyByFarrierShutsDownAtOnce() {
    Instance spot = cloud.create(request("claim-s", List.of("m5.large"), List.of("spot"), List.of("us-east-1a")));
    clock.advance(Duration.ofSeconds(2));
    cloud.interruptSpot(spot.id(), Duration.ofMinutes(2));
    clock.advance(Duration.ofSeconds(30));
    assertEquals("shutting-down", cloud.delete(CLUSTER, "claim-s", spot.id()).state());
    clock.advance(Duration.ofSeconds(5));
    assertEquals("terminated", cloud.get(spot.id()).orElseThrow().state());
  }

  @Test
  void anOfferingMarkedUnavailableIsSkippedForAWhile() {
    cloud.markUnavailable("m5.large", "us-east-1a", "spot", "SpotInterruption of i-1");
    Instance launched = cloud.create(request("claim-s", List.of("m5.large"), List.of("spot"), List.of("us-east-1a", "us-east-1b")));
    assertEquals("us-east-1b", launched.zone(), "the marked offering is skipped");
    assertFalse(offering("m5.large", "us-east-1a", "spot").available());
    assertTrue(offering("m5.large", "us-east-1b", "spot").available());

    cloud.markUnavailable("m5.large", "us-east-1a", "spot", "again");
    clock.advance(SimulatedCloud.UNAVAILABLE_FOR.minusSeconds(1));
    assertFalse(offering("m5.large", "us-east-1a", "spot").available(), "marking again extends, never shortens");
    clock.advance(Duration.ofSeconds(1));
    assertTrue(offering("m5.large", "us-east-1a", "spot").available(), "offered again once the mark expires");
    assertEquals(2, cloud.calls().read().stream().filter(c -> c.operation() == Operation.MARK_UNAVAILABLE).count());
  }

  private Offering offering(String type, String zone, String capacityType) {
    return cloud.instanceTypes().stream().filter(t -> t.name().equals(type)).findFirst().orElseThrow().offerings().stream()
        .filter(o -> o.zone().equals(zone) && o.capacityType().equals(capacityType)).findFirst().orElseThrow();
  }

  @Test
  void terminatedInstancesDisappearAfterAnHour() {
    Instance instance = cloud.create(onDemand("claim-a", "m5.large"));
    cloud.delete(CLUSTER, "claim-a", instance.id());
    clock.advance(Duration.ofSeconds(5).plus(SimulatedCloud.TERMINATED_VISIBILITY));
    cloud.create(onDemand("claim-b", "m5.large")); // pruning happens on writes
    assertTrue(cloud.get(instance.id()).isEmpty());
    assertEquals("not-found", cloud.delete(CLUSTER, "claim-a", instance.id()).state());
  }

  @Test
  void stateIsSharedByEveryCloudOnTheSameDirectory() {
    Instance launched = cloud.create(onDemand("claim-a", "m5.large"));
    SimulatedCloud restarted = new SimulatedCloud(config());
    assertEquals(launched, restarted.get(launched.id()).orElseThrow());
    assertEquals(launched.id(), restarted.create(onDemand("claim-a", "m5.large")).id());
    restarted.delete(CLUSTER, "claim-a", launched.id());
    assertEquals("shutting-down", cloud.get(launched.id()).orElseThrow().state());
    assertEquals(List.of(Operation.CREATE, Operation.CREATE_EXISTING, Operation.TERMINATE),
        new CloudCallLog(stateDir).read().stream().map(CloudCall::operation).toList());
  }

  @Test
  void neverTerminatesAForeignInstance() {
    Instance foreign = cloud.registerForeignInstance("m5.large", "us-east-1a", Map.of("Name", "bastion", WellKnown.TAG_CLUSTER, CLUSTER));
    CloudProviderException e = assertThrows(CloudProviderException.class, () -> cloud.delete(CLUSTER, null, foreign.id()));
    assertEquals(CloudProviderException.Kind.NOT_OWNED, e.kind());
    assertEquals("running", cloud.get(foreign.id()).orElseThrow().state());
    assertTrue(cloud.list(CLUSTER).isEmpty(), "list shows only Farrier's instances");
    assertEquals(1, cloud.calls().read(Operation.TERMINATE_REFUSED).size());
    assertTrue(cloud.calls().read(Operation.TERMINATE).isEmpty());
  }

  @Test
  void refusesToTerminateAnotherClaimsOrClustersInstance() {
    Instance instance = cloud.create(onDemand("claim-a", "m5.large"));
    CloudProviderException otherClaim = assertThrows(CloudProviderException.class, () -> cloud.delete(CLUSTER, "claim-b", instance.id()));
    assertEquals(CloudProviderException.Kind.NOT_OWNED, otherClaim.kind());
    CloudProviderException otherCluster = assertThrows(CloudProviderException.class, () -> cloud.delete("prod", "claim-a", instance.id()));
    assertEquals(CloudProviderException.Kind.NOT_OWNED, otherCluster.kind());
    assertEquals("pending", cloud.get(instance.id()).orElseThrow().state());
    assertEquals("shutting-down", cloud.delete(CLUSTER, null, instance.id()).state(), "garbage collection names no claim");
  }

  @Test
  void prefersTheCheapestSpotOfferingWhenSpotIsAllowed() {
    Instance instance = cloud.create(request("claim-a", List.of("m5.large"), List.of("on-demand", "spot"), List.of()));
    assertEquals("spot", instance.capacityType());
    double cheapest = cloud.catalog().find("m5.large").orElseThrow().offerings().stream()
        .filter(o -> o.capacityType().equals("spot")).mapToDouble(Offering::pricePerHour).min().orElseThrow();
    assertEquals(cheapest, instance.pricePerHour());
  }

  @Test
  void fallsBackToTheNextOfferingThenFailsWithInsufficientCapacity() {
    List<String> zones = List.of("us-east-1a", "us-east-1b");
    for (String zone : zones) {
      cloud.setOfferingAvailable(new OfferingKey("m5.large", zone, "spot"), false);
    }
    LaunchRequest request = request("claim-a", List.of("m5.large", "m6g.large"), List.of("spot", "on-demand"), zones);
    Instance onDemand = cloud.create(request);
    assertEquals("m5.large", onDemand.instanceType());
    assertEquals("on-demand", onDemand.capacityType());
    assertFalse(cloud.instanceTypes().stream().filter(t -> t.name().equals("m5.large")).findFirst().orElseThrow()
        .offerings().stream().filter(o -> o.zone().equals("us-east-1a") && o.capacityType().equals("spot")).findFirst().orElseThrow().available());

    for (String zone : zones) {
      cloud.setOfferingAvailable(new OfferingKey("m5.large", zone, "on-demand"), false);
    }
    Instance arm = cloud.create(request("claim-b", List.of("m5.large", "m6g.large"), List.of("spot", "on-demand"), zones));
    assertEquals("m6g.large", arm.instanceType());
    assertEquals("arm64", images.stream().filter(i -> i.id().equals(arm.imageId())).findFirst().orElseThrow().arch());

    for (String zone : zones) {
      for (String capacityType : List.of("spot", "on-demand")) {
        cloud.setOfferingAvailable(new OfferingKey("m6g.large", zone, capacityType), false);
      }
    }
    CloudProviderException e = assertThrows(CloudProviderException.class,
        () -> cloud.create(request("claim-c", List.of("m5.large", "m6g.large"), List.of("spot", "on-demand"), zones)));
    assertEquals(CloudProviderException.Kind.INSUFFICIENT_CAPACITY, e.kind());
    assertEquals(1, cloud.calls().count(Operation.CREATE_FAILED, "claim-c"));
    assertTrue(cloud.list(CLUSTER).stream().noneMatch(i -> "claim-c".equals(i.tags().get(WellKnown.TAG_NODECLAIM))));

    cloud.setOfferingAvailable(new OfferingKey("m6g.large", "us-east-1b", "on-demand"), true);
    assertEquals(CloudProviderException.Kind.INSUFFICIENT_CAPACITY, assertThrows(CloudProviderException.class,
        () -> cloud.create(request("claim-c", List.of("m5.large", "m6g.large"), List.of("spot", "on-demand"), zones))).kind(),
        "capacity back, but the offering stays marked unavailable until the mark expires");
    clock.advance(SimulatedCloud.UNAVAILABLE_FOR);
    assertEquals("us-east-1b", cloud.create(request("claim-c", List.of("m5.large", "m6g.large"), List.of("spot", "on-demand"), zones)).zone());
  }

  @Test
  void anExhaustedCheapestOfferingIsMarkedAndTheNextOneLaunchedOnSimulatedCloud() {
    List<String> zones = List.of("us-east-1a", "us-east-1b");
    Offering cheapest = offeringsOf("m5.large", "on-demand", zones).getFirst();
    Offering next = offeringsOf("m5.large", "on-demand", zones).get(1);
    OfferingKey exhausted = new OfferingKey("m5.large", cheapest.zone(), "on-demand");
    cloud.setOfferingAvailable(exhausted, false);
    assertTrue(availability(exhausted), "EC2 does not announce a shortage: only a launch finds it");

    Instance instance = cloud.create(request("claim-a", List.of("m5.large"), List.of("on-demand"), zones));

    assertEquals(next.zone(), instance.zone());
    assertEquals("on-demand", instance.capacityType());
    assertFalse(availability(exhausted), "the launch marked the exhausted offering, and instanceTypes reports it");
    List<CloudCall> marks = cloud.calls().read(Operation.MARK_UNAVAILABLE);
    assertEquals(1, marks.size());
    assertEquals("claim-a", marks.getFirst().nodeClaim());
    assertTrue(marks.getFirst().detail().startsWith(exhausted + " until " + clock.instant().plus(SimulatedCloud.UNAVAILABLE_FOR)),
        marks.getFirst().detail());
    List<Operation> order = cloud.calls().read().stream().map(CloudCall::operation)
        .filter(o -> o == Operation.MARK_UNAVAILABLE || o == Operation.CREATE).toList();
    assertEquals(List.of(Operation.MARK_UNAVAILABLE, Operation.CREATE), order);

    clock.advance(SimulatedCloud.UNAVAILABLE_FOR);
    assertTrue(availability(exhausted), "the mark expires; the shortage is hidden again until a launch finds it");
  }

  @Test
  void everyOfferingExhaustedFailsWithInsufficientCapacityAndMarksThemAllOnSimulatedCloud() {
    List<String> zones = List.of("us-east-1a", "us-east-1b");
    List<OfferingKey> all = new ArrayList<>();
    for (String type : List.of("m5.large", "m6g.large")) {
      for (String capacityType : List.of("spot", "on-demand")) {
        offeringsOf(type, capacityType, zones).forEach(o -> all.add(new OfferingKey(type, o.zone(), capacityType)));
      }
    }
    all.forEach(o -> cloud.setOfferingAvailable(o, false));

    CloudProviderException e = assertThrows(CloudProviderException.class,
        () -> cloud.create(request("claim-a", List.of("m5.large", "m6g.large"), List.of("spot", "on-demand"), zones)));

    assertEquals(CloudProviderException.Kind.INSUFFICIENT_CAPACITY, e.kind());
    assertEquals(8, all.size());
    all.forEach(o -> assertFalse(availability(o), o + " marked unavailable"));
    assertEquals(all.size(), cloud.calls().count(Operation.MARK_UNAVAILABLE, "claim-a"));
    assertEquals(1, cloud.calls().count(Operation.CREATE_FAILED, "claim-a"));
    assertEquals(0, cloud.calls().count(Operation.CREATE, "claim-a"));
    assertTrue(cloud.instances().isEmpty());

    CloudProviderException again = assertThrows(CloudProviderException.class,
        () -> cloud.create(request("claim-a", List.of("m5.large", "m6g.large"), List.of("spot", "on-demand"), zones)));
    assertEquals(CloudProviderException.Kind.INSUFFICIENT_CAPACITY, again.kind());
    assertEquals(all.size(), cloud.calls().count(Operation.MARK_UNAVAILABLE, "claim-a"), "marked offerings are not tried again");
  }

  @Test
  void aStateFileWrittenWithTheOldFieldNameKeepsItsShortagesOnSimulatedCloud() throws Exception {
    Files.writeString(stateDir.resolve("state.json"), """
        {"network": 7, "launches": 0, "instances": [], "instanceProfiles": [], "unavailableUntil": [],
         "unavailableOfferings": [{"instanceType": "m5.large", "zone": "us-east-1a", "capacityType": "on-demand"}]}
        """);
    Instance instance = cloud.create(request("claim-a", List.of("m5.large"), List.of("on-demand"), List.of("us-east-1a", "us-east-1b")));
    assertEquals("us-east-1b", instance.zone());
    assertFalse(availability(new OfferingKey("m5.large", "us-east-1a", "on-demand")));
  }

  /** The type's offerings of one capacity type in the zones, in the order a launch tries them. */
  private List<Offering> offeringsOf(String type, String capacityType, List<String> zones) {
    return cloud.catalog().find(type).orElseThrow().offerings().stream()
        .filter(o -> o.capacityType().equals(capacityType) && zones.contains(o.zone()))
        .sorted(Comparator.comparingDouble(Offering::pricePerHour).thenComparing(Offering::zone))
        .toList();
  }

  private boolean availability(OfferingKey key) {
    return cloud.instanceTypes().stream().filter(t -> t.name().equals(key.instanceType())).findFirst().orElseThrow()
        .offerings().stream().filter(o -> o.zone().equals(key.zone()) && o.capacityType().equals(key.capacityType()))
        .findFirst().orElseThrow().available();
  }

  @Test
  void rejectsRequestsItCannotServe() {
    CloudProviderException unknownType = assertThrows(CloudProviderException.class, () -> cloud.create(onDemand("claim-a", "z9.huge")));
    assertEquals(CloudProviderException.Kind.INVALID_REQUEST, unknownType.kind());
    LaunchRequest armOnly = new LaunchRequest(CLUSTER, "claim-b", "default", "default", List.of("m5.large"), List.of("on-demand"),
        List.of(), images.stream().filter(i -> i.arch().equals("arm64")).toList(), Map.of(WellKnown.TAG_OWNER, "farrier"), Map.of(), List.of());
    assertEquals(CloudProviderException.Kind.INVALID_REQUEST, assertThrows(CloudProviderException.class, () -> cloud.create(armOnly)).kind());
    assertEquals(2, cloud.calls().read(Operation.CREATE_FAILED).size());
  }

  @Test
  void deletingAnUnknownInstanceIsDone() {
    assertEquals("not-found", cloud.delete(CLUSTER, "claim-a", "i-0123456789abcdef0").state());
  }

  @Test
  void exposesSsmParametersForTheSandbox() {
    String id = cloud.ssmParameter("/aws/service/eks/optimized-ami/1.34/amazon-linux-2023/x86_64/standard/recommended/image_id").orElseThrow();
    assertEquals("amazon-eks-node-al2023-x86_64-standard-1.34-v20251103", cloud.amis().findById(id).orElseThrow().name());
  }
}
