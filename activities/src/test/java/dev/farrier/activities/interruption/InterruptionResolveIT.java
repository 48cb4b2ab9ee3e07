package dev.farrier.activities.interruption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.interruption.InterruptionCounters;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimSpec;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodeClassReference;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.workflows.activities.InterruptionKind;
import dev.farrier.workflows.activities.ResolveInterruptionRequest;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Resolving interrupted instances to NodeClaims on the real kube-apiserver. */
class InterruptionResolveIT extends ClusterIT {
  private static String claim(String name, String instanceId) {
    var claim = new NodeClaim();
    claim.setMetadata(new ObjectMetaBuilder().withName(name).withLabels(Map.of(WellKnown.NODEPOOL_LABEL, "default"))
        .withAnnotations(Map.of(WellKnown.NODEPOOL_HASH_VERSION_ANNOTATION, NodePoolHash.VERSION))
        .withFinalizers(WellKnown.TERMINATION_FINALIZER).build());
    claim.setSpec(new NodeClaimSpec(List.of(), null, List.of(), List.of(), NodeClassReference.ec2NodeClass("default"), null, null));
    cluster.createNodeClaimIfAbsent(claim);
    cluster.patchNodeClaimStatus(name, new NodeClaimStatus("aws:///us-east-1a/" + instanceId, null, null, null, null, List.of(), null));
    return name;
  }

  @Test
  void aClaimBeingDeletedIsNoTargetSoItsTerminationEventsStartNoReplacement() {
    String live = claim(KubeTestSupport.unique("live"), "i-0aaaaaaaaaaaaaaa1");
    String deleting = claim(KubeTestSupport.unique("deleting"), "i-0aaaaaaaaaaaaaaa2");
    cluster.deleteNodeClaim(deleting); // held by its finalizer, as while Farrier terminates its instance
    assertTrue(cluster.getNodeClaim(deleting).orElseThrow().getMetadata().getDeletionTimestamp() != null);
    var activities = new InterruptionActivitiesImpl(queue -> null, cluster, null, new InterruptionCounters(new SimpleMeterRegistry()), () -> false);

    var resolved = activities.resolve(new ResolveInterruptionRequest("c", InterruptionKind.InstanceStateChange, "state shutting-down",
        List.of("i-0aaaaaaaaaaaaaaa1", "i-0aaaaaaaaaaaaaaa2")));

    assertEquals(2, resolved.targets().size());
    assertTrue(resolved.targets().get(0).farriers());
    assertEquals(live, resolved.targets().get(0).command().nodeClaim());
    assertFalse(resolved.targets().get(1).farriers(), "a claim being deleted is not replaced");
    cluster.removeNodeClaimFinalizer(deleting, WellKnown.TERMINATION_FINALIZER);
    cluster.deleteNodeClaim(live);
    cluster.removeNodeClaimFinalizer(live, WellKnown.TERMINATION_FINALIZER);
  }
}
