package dev.farrier.activities.gc;

import dev.farrier.activities.metrics.MetricCatalog;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.aws.AwsClusterIT;
import dev.farrier.activities.cloud.MutableClock;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimSpec;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodeClassReference;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.localstack.LocalStack;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Garbage collection with the AWS provider on moto and NodeClaims on the real kube-apiserver. moto cannot age an
 * instance, so the collector's clock runs ahead instead (grace five minutes, confirmation two). Each test has a cluster
 * name of its own (instances) and starts with no NodeClaims in the shared API server (claims are cluster-wide).
 */
class GarbageCollectorOnMotoIT extends AwsClusterIT {
  private static final Duration GRACE = Duration.ofMinutes(5);
  private String gcCluster;
  private String pool;
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  @BeforeEach
  void freshClaims() {
    for (NodeClaim claim : cluster.listNodeClaims()) {
      cluster.removeNodeClaimFinalizer(claim.getMetadata().getName(), WellKnown.TERMINATION_FINALIZER);
      cluster.deleteNodeClaim(claim.getMetadata().getName());
    }
    gcCluster = KubeTestSupport.unique("gc");
    pool = KubeTestSupport.unique("gcpool");
    KubeTestSupport.apply(client, KubeTestSupport.nodePoolYaml(pool, "default"));
  }

  private NodeClaim claim(String name) {
    var claim = new NodeClaim();
    claim.setMetadata(new ObjectMetaBuilder().withName(name).withLabels(Map.of(WellKnown.NODEPOOL_LABEL, pool))
        .withAnnotations(Map.of(WellKnown.NODEPOOL_HASH_VERSION_ANNOTATION, NodePoolHash.VERSION))
        .withFinalizers(WellKnown.TERMINATION_FINALIZER).build());
    claim.setSpec(new NodeClaimSpec(List.of(), null, List.of(), List.of(), NodeClassReference.ec2NodeClass("default"), null, null));
    return claim;
  }

  private static void launched(String claim, Instance instance) {
    cluster.patchNodeClaimStatus(claim, new NodeClaimStatus(instance.providerId(), instance.imageId(), null, null, null,
        List.of(Condition.of(NodeClaimStatus.LAUNCHED, Condition.TRUE, "Launched", "", Instant.now())), null));
  }

  private Instance claimed(String name) {
    cluster.createNodeClaimIfAbsent(claim(name));
    Instance instance = aws.launch(gcCluster, name);
    launched(name, instance);
    return instance;
  }

  private GarbageCollector collector(CloudProvider cloud, Clock clock) {
    return new GarbageCollector(cluster, cloud, CloudSweep.NONE, gcCluster, clock, GcPolicy.withGrace(GRACE), meters);
  }

  private static Clock ahead(Duration by) {
    return Clock.offset(Clock.systemUTC(), by);
  }

  private boolean deletionRequested(String claim) {
    return cluster.getNodeClaim(claim).map(c -> c.getMetadata().getDeletionTimestamp() != null).orElse(true);
  }

  @Test
  void anOrphanPastTheGraceIsTerminatedAClaimedInstanceIsKeptAndAGoneInstanceIsConfirmedBeforeItsClaimGoes() {
    Instance orphan = aws.launch(gcCluster, KubeTestSupport.unique("orphan"));
    String keptClaim = KubeTestSupport.unique("kept");
    Instance kept = claimed(keptClaim);
    claimed(KubeTestSupport.unique("kept"));
    claimed(KubeTestSupport.unique("kept"));
    claimed(KubeTestSupport.unique("kept"));
    String goneClaim = KubeTestSupport.unique("gone");
    Instance gone = claimed(goneClaim);
    aws.provider().delete(gcCluster, goneClaim, gone.id());

    var early = collector(aws.provider(), Clock.systemUTC()).collect();
    assertEquals(List.of(), early.terminatedInstances(), "within the grace nothing is touched");
    assertEquals(List.of(), early.deletedNodeClaims());

    var clock = new MutableClock(Instant.now().plus(Duration.ofMinutes(10)));
    var collector = collector(aws.provider(), clock);
    var first = collector.collect();
    assertEquals(List.of(orphan.id()), first.terminatedInstances());
    assertTrue(List.of("shutting-down", "terminated").contains(aws.provider().get(orphan.id()).orElseThrow().state()));
    assertEquals("running", aws.provider().get(kept.id()).orElseThrow().state(), "a claimed instance is kept");
    assertEquals(List.of(goneClaim), first.suspectedNodeClaims(), "seen gone once: not yet");
    assertEquals(List.of(), first.deletedNodeClaims());
    assertTrue(!deletionRequested(goneClaim));

    // A fresh collector (a restarted worker) has no memory of the first sighting: it starts the wait again.
    assertEquals(List.of(goneClaim), collector(aws.provider(), ahead(Duration.ofMinutes(13))).collect().suspectedNodeClaims());
    clock.advance(Duration.ofMinutes(1));
    assertEquals(List.of(goneClaim), collector.collect().suspectedNodeClaims(), "a minute later: still confirming");
    clock.advance(Duration.ofMinutes(2));
    var confirmed = collector.collect();
    assertEquals(List.of(goneClaim), confirmed.deletedNodeClaims());
    assertTrue(deletionRequested(goneClaim), "the claim of a terminated instance goes through its termination");
    NodeClaim held = cluster.getNodeClaim(goneClaim).orElseThrow();
    assertTrue(held.getMetadata().getFinalizers().contains(WellKnown.TERMINATION_FINALIZER),
        "not a bare delete: the finalizer holds the claim for the termination path (drain, then delete)");
    assertTrue(!deletionRequested(keptClaim));
    assertNull(confirmed.haltedBecause());
  }

  @Test
  void aSecondInstanceTaggedWithAClaimThatRecordsAnotherIsTerminatedPastTheGrace() {
    String claim = KubeTestSupport.unique("dup");
    Instance recorded = claimed(claim);
    for (int i = 0; i < 4; i++) {
      claimed(KubeTestSupport.unique("other"));
    }
    Instance duplicate = aws.launchDuplicate(recorded);
    String inFlightClaim = KubeTestSupport.unique("inflight");
    cluster.createNodeClaimIfAbsent(claim(inFlightClaim));
    Instance inFlight = aws.launch(gcCluster, inFlightClaim);

    var pass = collector(aws.provider(), ahead(Duration.ofMinutes(10))).collect();

    assertEquals(List.of(duplicate.id()), pass.terminatedInstances());
    assertTrue(List.of("shutting-down", "terminated").contains(aws.provider().get(duplicate.id()).orElseThrow().state()));
    assertEquals("running", aws.provider().get(recorded.id()).orElseThrow().state(), "the instance the claim records is kept");
    assertEquals("running", aws.provider().get(inFlight.id()).orElseThrow().state(),
        "a claim without a providerID yet (launch in flight) keeps its tagged instance");
    assertTrue(cluster.getNodeClaim(claim).isPresent());
  }

  @Test
  void aWorkerPointedAtTheWrongRegionDeletesNothingAndSaysSo(LocalStack stack) {
    List<String> claims = List.of(KubeTestSupport.unique("wr"), KubeTestSupport.unique("wr"), KubeTestSupport.unique("wr"));
    List<Instance> instances = claims.stream().map(this::claimed).toList();
    CloudProvider wrongRegion = aws.providerInRegion(stack, gcCluster, "eu-west-1");
    var clock = new MutableClock(Instant.now().plus(Duration.ofMinutes(10)));
    var collector = collector(wrongRegion, clock);

    var first = collector.collect();
    clock.advance(Duration.ofMinutes(10));
    var later = collector.collect();

    for (var pass : List.of(first, later)) {
      assertNotNull(pass.haltedBecause(), "every instance looks gone: the pass must halt");
      assertEquals(List.of(), pass.deletedNodeClaims());
      assertEquals(List.of(), pass.terminatedInstances());
    }
    assertTrue(later.haltedBecause().contains("3 of 3"), later.haltedBecause());
    claims.forEach(c -> assertTrue(!deletionRequested(c), "claim " + c + " untouched"));
    instances.forEach(i -> assertEquals("running", aws.provider().get(i.id()).orElseThrow().state()));
    var condition = Conditions.find(cluster.getNodePool(pool).orElseThrow().getStatus().conditions(), GarbageCollector.HALTED_CONDITION);
    assertTrue(condition.map(Condition::isTrue).orElse(false), "the NodePool says so: " + condition);
    assertTrue(client.v1().events().inAnyNamespace().list().getItems().stream()
        .anyMatch(e -> pool.equals(e.getInvolvedObject().getName()) && GarbageCollector.HALTED_CONDITION.equals(e.getReason())),
        "an Event on the NodePool");
    assertEquals(2.0, meters.counter(MetricCatalog.GC_HALTED.registeredName()).count());

    var healthy = collector(aws.provider(), ahead(Duration.ofMinutes(10))).collect();
    assertNull(healthy.haltedBecause());
    assertTrue(Conditions.find(cluster.getNodePool(pool).orElseThrow().getStatus().conditions(), GarbageCollector.HALTED_CONDITION)
        .map(c -> !c.isTrue()).orElse(false), "cleared by a pass that is not halted");
  }

  @Test
  void instancesThatAreNotExactlyFarriersAreNeverTerminated() {
    for (int i = 0; i < 6; i++) {
      claimed(KubeTestSupport.unique("mine"));
    }
    Map<String, String> farriers = new LinkedHashMap<>(Map.of(WellKnown.TAG_OWNER, "farrier", WellKnown.TAG_CLUSTER, gcCluster,
        WellKnown.TAG_NODEPOOL, pool, WellKnown.TAG_NODECLAIM, "no-such-claim"));
    List<Map<String, String>> foreign = List.of(
        with(farriers, WellKnown.TAG_OWNER, "someone-else"),
        with(farriers, WellKnown.TAG_OWNER, "Farrier"),
        with(farriers, WellKnown.TAG_OWNER, "farrier "),
        with(farriers, WellKnown.TAG_CLUSTER, gcCluster + "x"),
        with(farriers, WellKnown.TAG_CLUSTER, gcCluster.substring(0, gcCluster.length() - 1)),
        without(farriers, WellKnown.TAG_OWNER),
        without(farriers, WellKnown.TAG_NODEPOOL),
        without(farriers, WellKnown.TAG_NODECLAIM));
    List<Instance> others = foreign.stream().map(aws::launchTagged).toList();

    var pass = collector(aws.provider(), ahead(Duration.ofMinutes(10))).collect();

    assertEquals(List.of(), pass.terminatedInstances());
    others.forEach(i -> assertEquals("running", aws.provider().get(i.id()).orElseThrow().state(), "left alone: " + i.tags()));
    // The same tags, exactly Farrier's: that one is an orphan and goes.
    Instance orphan = aws.launchTagged(farriers);
    assertEquals(List.of(orphan.id()), collector(aws.provider(), ahead(Duration.ofMinutes(10))).collect().terminatedInstances());
  }

  private static Map<String, String> with(Map<String, String> tags, String key, String value) {
    Map<String, String> copy = new LinkedHashMap<>(tags);
    copy.put(key, value);
    return copy;
  }

  private static Map<String, String> without(Map<String, String> tags, String key) {
    Map<String, String> copy = new LinkedHashMap<>(tags);
    copy.remove(key);
    return copy;
  }
}
