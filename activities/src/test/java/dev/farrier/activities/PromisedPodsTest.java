package dev.farrier.activities;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.workflows.model.PodRef;
import dev.farrier.workflows.model.Resources;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pods a claim holds room for: while it launches and for the promise window after it is Initialized. */
class PromisedPodsTest {
  private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
  private static final long GIB = 1L << 30;

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
    assertEquals(Set.of("u1", "u2", "u3"), PromisedPods.held(claims, pending("u1", "u2", "u3", "u4", "u5"), node -> null, NOW));
  }

  @Test
  void anInitializedClaimHoldsOnlyThePodsItsNodeStillHasRoomForInTheOrderTheyWerePlanned() {
    // The kube-scheduler filled the new node with other pods: room is left for one of the three planned there.
    var claims = List.of(claim("filled", "u1,u2,u3", NOW.minusSeconds(5), false), claim("launching", "u4", null, false));
    Map<String, Resources> free = Map.of("node-filled", Resources.of(1_500, GIB, 10), "node-launching", Resources.ZERO);
    assertEquals(Set.of("u1", "u4"), PromisedPods.held(claims, pending("u1", "u2", "u3", "u4"), free::get, NOW));
  }

  @Test
  void aPodAlreadyBoundTakesNoneOfTheRoomLeftForThePendingOnes() {
    var claims = List.of(claim("filled", "bound,u2", NOW.minusSeconds(5), false));
    assertEquals(Set.of("u2"), PromisedPods.held(claims, pending("u2"), Map.of("node-filled", Resources.of(1_000, GIB, 10))::get, NOW));
  }

  @Test
  void aNodeWithNoFreePodSlotHoldsNothing() {
    var claims = List.of(claim("full", "u1", NOW.minusSeconds(5), false));
    assertEquals(Set.of(), PromisedPods.held(claims, pending("u1"), Map.of("node-full", Resources.of(4_000, 8 * GIB, 0))::get, NOW));
  }

  /** Pending pods of one CPU and 1 GiB each. */
  private static Map<String, Resources> pending(String... uids) {
    Map<String, Resources> out = new HashMap<>();
    for (String uid : uids) {
      out.put(uid, Resources.of(1_000, GIB, 1));
    }
    return out;
  }
}
