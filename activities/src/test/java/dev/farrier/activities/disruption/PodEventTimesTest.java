package dev.farrier.activities.disruption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.provisioning.ProvisioningSnapshots;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When a claim is nominated: it holds room for pods still binding, or for the pods of a node being drained. */
class PodEventTimesTest {
  private static final Instant NOW = Instant.parse("2026-11-25T02:00:00Z");

  static NodeClaim claim(String uids, Instant initializedAt) {
    var claim = new NodeClaim();
    claim.setMetadata(new ObjectMetaBuilder().withName("c")
        .withAnnotations(Map.of(WellKnown.PLANNED_PODS_ANNOTATION, uids)).build());
    claim.setStatus(new NodeClaimStatus(null, null, "own-node", null, null,
        List.of(new Condition(NodeClaimStatus.INITIALIZED, Condition.TRUE, null, initializedAt.toString(), "Initialized", "")), null));
    return claim;
  }

  @Test
  void anAnnotationRepeatingAUidCountsItOnceAndDoesNotFail() {
    assertEquals("launched for 2 pods the scheduler may still be binding (for 60 s after initialization)",
        PodEventTimes.nominated(claim("u1,u2,u1", NOW.minusSeconds(5)), NOW, Map.of(), true));
  }

  @Test
  void withNoPodUnboundTheWindowEndsEarlyButAReplacementStillWaitsForItsDrain() {
    var recent = NOW.minusSeconds(5);
    assertNull(PodEventTimes.nominated(claim("u1,u2", recent), NOW, Map.of(), false));
    assertEquals("launched for pods still on node n-old, which is being disrupted",
        PodEventTimes.nominated(claim("u1,u2", recent), NOW, Map.of("u2", "n-old"), false));
  }

  @Test
  void aReplacementWaitingForItsDrainIsNominatedLongAfterItInitialized() {
    var old = NOW.minus(ProvisioningSnapshots.PROMISE_WINDOW).minusSeconds(30);
    assertEquals("launched for pods still on node n-old, which is being disrupted",
        PodEventTimes.nominated(claim("u1,u2", old), NOW, Map.of("u2", "n-old"), true));
    assertNull(PodEventTimes.nominated(claim("u1,u2", old), NOW, Map.of(), true));
  }

  @Test
  void itsOwnPodsBeingDrainedDoNotNominateIt() {
    var old = NOW.minus(ProvisioningSnapshots.PROMISE_WINDOW).minusSeconds(30);
    assertNull(PodEventTimes.nominated(claim("u1", old), NOW, Map.of("u1", "own-node"), true));
  }
}
