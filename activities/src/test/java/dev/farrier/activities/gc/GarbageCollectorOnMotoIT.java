package dev.farrier.activities.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.aws.AwsClusterIT;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimSpec;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodeClassReference;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.workflows.model.WellKnown;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Garbage collection with the AWS provider on moto and NodeClaims on the real kube-apiserver. moto cannot age an
 * instance, so the collector's clock runs ten minutes ahead instead (grace five minutes).
 */
class GarbageCollectorOnMotoIT extends AwsClusterIT {
  private static NodeClaim claim(String name) {
    var claim = new NodeClaim();
    claim.setMetadata(new ObjectMetaBuilder().withName(name).withLabels(Map.of(WellKnown.NODEPOOL_LABEL, "default"))
        .withAnnotations(Map.of(WellKnown.NODEPOOL_HASH_VERSION_ANNOTATION, NodePoolHash.VERSION))
        .withFinalizers(WellKnown.TERMINATION_FINALIZER).build());
    claim.setSpec(new NodeClaimSpec(List.of(), null, List.of(), List.of(), NodeClassReference.ec2NodeClass("default"), null, null));
    return claim;
  }

  private static void launched(String claim, Instance instance) {
    cluster.patchNodeClaimStatus(claim, new NodeClaimStatus(instance.providerId(), instance.imageId(), null, null, null,
        List.of(Condition.of(NodeClaimStatus.LAUNCHED, Condition.TRUE, "Launched", "", Instant.now())), null));
  }

  @Test
  void anOrphanPastTheGraceIsTerminatedAClaimedInstanceIsKeptAndAClaimWhoseInstanceIsGoneIsDeleted() {
    String orphanClaim = KubeTestSupport.unique("orphan");
    Instance orphan = aws.launch(clusterName, orphanClaim);
    String keptClaim = KubeTestSupport.unique("kept");
    cluster.createNodeClaimIfAbsent(claim(keptClaim));
    Instance kept = aws.launch(clusterName, keptClaim);
    launched(keptClaim, kept);
    String goneClaim = KubeTestSupport.unique("gone");
    cluster.createNodeClaimIfAbsent(claim(goneClaim));
    Instance gone = aws.launch(clusterName, goneClaim);
    launched(goneClaim, gone);
    aws.provider().delete(clusterName, goneClaim, gone.id());

    var early = new GarbageCollector(cluster, aws.provider(), CloudSweep.NONE, clusterName, Clock.systemUTC(), Duration.ofMinutes(5)).collect();
    assertEquals(List.of(), early.terminatedInstances(), "within the grace nothing is touched");
    assertTrue(!early.deletedNodeClaims().contains(goneClaim));

    var later = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(10));
    var collector = new GarbageCollector(cluster, aws.provider(), CloudSweep.NONE, clusterName, later, Duration.ofMinutes(5));
    var pass = collector.collect();

    assertEquals(List.of(orphan.id()), pass.terminatedInstances());
    assertTrue(List.of("shutting-down", "terminated").contains(aws.provider().get(orphan.id()).orElseThrow().state()));
    assertEquals("running", aws.provider().get(kept.id()).orElseThrow().state(), "a claimed instance is kept");
    // The kube-apiserver is shared with other test classes: their leftover claims may be collected too.
    assertTrue(pass.deletedNodeClaims().contains(goneClaim), pass.deletedNodeClaims().toString());
    assertTrue(!pass.deletedNodeClaims().contains(keptClaim));
    assertTrue(cluster.getNodeClaim(goneClaim).isEmpty(), "the claim of a terminated instance is deleted");
    assertTrue(cluster.getNodeClaim(keptClaim).isPresent());

    var again = collector.collect();
    assertEquals(List.of(), again.terminatedInstances(), "idempotent");
    assertEquals(List.of(), again.deletedNodeClaims());
  }

  @Test
  void aSecondInstanceTaggedWithAClaimThatRecordsAnotherIsTerminatedPastTheGrace() {
    String claim = KubeTestSupport.unique("dup");
    cluster.createNodeClaimIfAbsent(claim(claim));
    Instance recorded = aws.launch(clusterName, claim);
    launched(claim, recorded);
    Instance duplicate = aws.launchDuplicate(recorded);
    String inFlightClaim = KubeTestSupport.unique("inflight");
    cluster.createNodeClaimIfAbsent(claim(inFlightClaim));
    Instance inFlight = aws.launch(clusterName, inFlightClaim);

    var later = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(10));
    var pass = new GarbageCollector(cluster, aws.provider(), CloudSweep.NONE, clusterName, later, Duration.ofMinutes(5)).collect();

    assertTrue(pass.terminatedInstances().contains(duplicate.id()), pass.terminatedInstances().toString());
    assertTrue(List.of("shutting-down", "terminated").contains(aws.provider().get(duplicate.id()).orElseThrow().state()));
    assertEquals("running", aws.provider().get(recorded.id()).orElseThrow().state(), "the instance the claim records is kept");
    assertEquals("running", aws.provider().get(inFlight.id()).orElseThrow().state(),
        "a claim without a providerID yet (launch in flight) keeps its tagged instance");
    assertTrue(!pass.terminatedInstances().contains(recorded.id()) && !pass.terminatedInstances().contains(inFlight.id()));
    assertTrue(cluster.getNodeClaim(claim).isPresent());
  }
}
