package dev.farrier.activities.disruption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimSpec;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodeClassReference;
import dev.farrier.activities.crd.NodePoolHash;
import dev.farrier.activities.kube.ClusterIT;
import dev.farrier.activities.kube.KubeTestSupport;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code status.lastPodEventTime} kept on the real kube-apiserver as Karpenter's pod-events controller keeps it: a pod
 * bound counts from its PodScheduled time, a pod leaving from when it is seen leaving, events closer than the dedupe
 * window to the stored time are not written, and a node without a claim is ignored.
 */
class PodEventRecorderIT extends ClusterIT {
  private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");

  private static String claimOnNode(String node) {
    String name = KubeTestSupport.unique("events");
    var claim = new NodeClaim();
    claim.setMetadata(new ObjectMetaBuilder().withName(name).withLabels(Map.of(WellKnown.NODEPOOL_LABEL, "default"))
        .withAnnotations(Map.of(WellKnown.NODEPOOL_HASH_VERSION_ANNOTATION, NodePoolHash.VERSION)).build());
    claim.setSpec(new NodeClaimSpec(List.of(), null, List.of(), List.of(), NodeClassReference.ec2NodeClass("default"), null, null));
    cluster.createNodeClaimIfAbsent(claim);
    cluster.patchNodeClaimStatus(name, new NodeClaimStatus(null, null, node, null, null, List.of(), null));
    return name;
  }

  private static String stored(String claim) {
    return cluster.getNodeClaim(claim).orElseThrow().getStatus().lastPodEventTime();
  }

  private static Pod pod(String node, String scheduledAt, String phase, boolean deleting) {
    var builder = new PodBuilder().withNewMetadata().withName("p").withNamespace("default")
        .withDeletionTimestamp(deleting ? NOW.toString() : null).endMetadata()
        .withNewSpec().withNodeName(node).endSpec().withNewStatus().withPhase(phase);
    if (scheduledAt != null) {
      builder = builder.addNewCondition().withType("PodScheduled").withStatus("True").withLastTransitionTime(scheduledAt).endCondition();
    }
    return builder.endStatus().build();
  }

  @Test
  void aBoundPodCountsFromItsSchedulingTimeAndALeavingOneFromWhenItIsSeen() {
    var recorder = new PodEventRecorder(cluster, Clock.fixed(NOW, ZoneOffset.UTC));
    var running = pod("n", "2026-11-24T11:00:00Z", "Running", false);
    assertEquals(Instant.parse("2026-11-24T11:00:00Z"), recorder.eventOf(null, running), "an add: when it was scheduled");
    assertNull(recorder.eventOf(running, running), "an update that changes nothing on the node is no event");
    assertEquals(NOW, recorder.eventOf(running, pod("n", "2026-11-24T11:00:00Z", "Running", true)), "terminating: now");
    assertEquals(NOW, recorder.eventOf(running, pod("n", "2026-11-24T11:00:00Z", "Succeeded", false)), "terminal: now");
    assertNull(recorder.eventOf(pod("n", null, "Succeeded", false), pod("n", null, "Succeeded", true)),
        "already gone from the node's point of view");
    assertNull(recorder.eventOf(null, pod(null, null, "Pending", false)), "not bound: no node's event");
    assertEquals(NOW, recorder.eventOf(null, pod("n", null, "Running", false)), "bound without a PodScheduled time: now");
  }

  @Test
  void eventsAreWrittenToTheClaimOfTheirNodeWithinTheDedupeWindowOnce() {
    String node = KubeTestSupport.unique("node");
    String claim = claimOnNode(node);
    var clock = new java.util.concurrent.atomic.AtomicReference<>(NOW);
    var recorder = new PodEventRecorder(cluster, new Clock() {
      @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
      @Override public Clock withZone(java.time.ZoneId zone) { return this; }
      @Override public Instant instant() { return clock.get(); }
    });

    recorder.observed(node, NOW.minusSeconds(30));
    recorder.observed(node, NOW.minusSeconds(10));
    recorder.observed("no-claim-" + node, NOW);
    assertEquals(1, recorder.flush(), "the latest event of the node, and nothing for a node without a claim");
    assertEquals(NOW.minusSeconds(10), Instant.parse(stored(claim)));

    recorder.observed(node, NOW.minusSeconds(6));
    assertEquals(0, recorder.flush(), "within the dedupe window of the stored time: not written");
    assertEquals(NOW.minusSeconds(10), Instant.parse(stored(claim)));

    recorder.deleted(pod(node, null, "Running", false));
    assertEquals(1, recorder.flush());
    assertEquals(NOW, Instant.parse(stored(claim)), "a deleted pod is an event now");
    assertEquals(0, recorder.flush(), "nothing left to write");
  }
}
