package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.workflows.model.PodRef;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pods a claim holds room for: while it launches and for the promise window after it is Initialized. */
class PromisedPodsTest {
  private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");

  private static NodeClaim claim(String name, String uids, Instant initializedAt, boolean deleting) {
    var meta = new ObjectMetaBuilder().withName(name).withAnnotations(Map.of(PromisedPods.ANNOTATION, uids));
    if (deleting) {
      meta.withDeletionTimestamp(NOW.toString());
    }
    var claim = new NodeClaim();
    claim.setMetadata(meta.build());
    if (initializedAt != null) {
      claim.setStatus(new NodeClaimStatus(null, null, "node-" + name, null, null,
          List.of(new Condition(NodeClaimStatus.INITIALIZED, Condition.TRUE, null, initializedAt.toString(), "Initialized", "")), null));
    }
    return claim;
  }

  @Test
  void theUidsOfThePodsAClaimWasCreatedForAreKeptOnIt() {
    assertEquals("u1,u2", PromisedPods.format(List.of(new PodRef("ns", "a", "u1"), new PodRef("ns", "b", "u2"), new PodRef("ns", "c", null))));
  }

  @Test
  void aClaimHoldsRoomWhileItLaunchesAndForTheWindowAfterItIsInitialized() {
    var claims = List.of(
        claim("launching", "u1", null, false),
        claim("just-up", "u2,u3", NOW.minusSeconds(5), false),
        claim("long-up", "u4", NOW.minus(ProvisioningSnapshots.PROMISE_WINDOW).minusSeconds(1), false),
        claim("deleting", "u5", null, true));
    assertEquals(Set.of("u1", "u2", "u3"), PromisedPods.of(claims, NOW));
  }
}
