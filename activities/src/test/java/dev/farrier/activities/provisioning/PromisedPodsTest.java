package dev.farrier.activities.provisioning;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.model.PodRef;
import dev.farrier.model.Resources;
import dev.farrier.model.Taint;
import dev.farrier.model.Toleration;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.ExistingNodeView;
import dev.farrier.planner.PodAffinityTerm;
import dev.farrier.planner.PodSelector;
import dev.farrier.planner.PodSpecView;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The pods a claim holds room for: while it launches and for the promise window after it is Initialized. */
class PromisedPodsTest {
  private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");
  private static final long GIB = 1L << 30;

  private static NodeClaim claim(String name, String uids, Instant initializedAt, boolean deleting) {
    var meta = new ObjectMetaBuilder().withName(name).withAnnotations(Map.of(WellKnown.PLANNED_PODS_ANNOTATION, uids));
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
    Map<String, ExistingNodeView> nodes = Map.of("node-filled", node(Resources.of(1_500, GIB, 10)), "node-launching", node(Resources.ZERO));
    assertEquals(Set.of("u1", "u4"), PromisedPods.held(claims, pending("u1", "u2", "u3", "u4"), rooms(nodes), NOW));
  }

  @Test
  void aPodAlreadyBoundTakesNoneOfTheRoomLeftForThePendingOnes() {
    var claims = List.of(claim("filled", "bound,u2", NOW.minusSeconds(5), false));
    assertEquals(Set.of("u2"), PromisedPods.held(claims, pending("u2"), rooms(Map.of("node-filled", node(Resources.of(1_000, GIB, 10)))), NOW));
  }

  @Test
  void aNodeWithNoFreePodSlotHoldsNothing() {
    var claims = List.of(claim("full", "u1", NOW.minusSeconds(5), false));
    assertEquals(Set.of(), PromisedPods.held(claims, pending("u1"), rooms(Map.of("node-full", node(Resources.of(4_000, 8 * GIB, 0)))), NOW));
  }

  @Test
  void aPodKeptOffItsNodeByTheRequiredHostnameAntiAffinityOfAPodBoundThereIsPlannedAgainAtOnce() {
    // The kube-scheduler put another replica of "web" (one per node) on the new node: the planned replica cannot go.
    var claims = List.of(claim("new", "u1,u2", NOW.minusSeconds(5), false));
    var replica = pod("bound", Map.of("app", "web"), oneWebPerNode("web"));
    var nodes = Map.of("node-new", node(Resources.of(4_000, 8 * GIB, 10), replica));
    var pending = Map.of("u1", pod("u1", Map.of("app", "web"), List.of()), "u2", pod("u2", Map.of("app", "db"), List.of()));
    assertEquals(Set.of("u2"), PromisedPods.held(claims, pending, rooms(nodes), NOW));
  }

  @Test
  void aPodWhoseOwnRequiredHostnameAntiAffinitySelectsAPodBoundThereIsPlannedAgainAtOnce() {
    var claims = List.of(claim("new", "u1", NOW.minusSeconds(5), false));
    var nodes = Map.of("node-new", node(Resources.of(4_000, 8 * GIB, 10), pod("bound", Map.of("app", "cache"), List.of())));
    var pending = Map.of("u1", pod("u1", Map.of("app", "web"), oneWebPerNode("cache")));
    assertEquals(Set.of(), PromisedPods.held(claims, pending, rooms(nodes), NOW));
  }

  @Test
  void antiAffinityInAnotherNamespaceOrOnAnotherTopologyKeyDoesNotKeepAPodOff() {
    var claims = List.of(claim("new", "u1,u2", NOW.minusSeconds(5), false));
    var zonal = new PodAffinityTerm(WellKnown.ZONE_LABEL, PodSelector.of(Map.of("app", "web"), List.of()), Set.of(), false, true, true, 0);
    var elsewhere = new PodSpecView(new PodRef("other", "bound", "bound"), Resources.of(100, GIB, 1), Map.of(), List.of(), List.of(),
        "ReplicaSet", false, Map.of("app", "web"), List.of(), List.of(), oneWebPerNode("web"), List.of());
    var nodes = Map.of("node-new", node(Resources.of(4_000, 8 * GIB, 10), elsewhere, pod("zonal", Map.of("app", "z"), List.of(zonal))));
    var pending = Map.of("u1", pod("u1", Map.of("app", "web"), List.of()), "u2", pod("u2", Map.of("app", "web"), List.of()));
    assertEquals(Set.of("u1", "u2"), PromisedPods.held(claims, pending, rooms(nodes), NOW));
  }

  @Test
  void twoPlannedPodsThatRepelEachOtherAreNotBothHeldOnOneNode() {
    // Planned together by mistake or since changed: the scheduler will bind only the first, so the second goes again.
    var claims = List.of(claim("new", "u1,u2", NOW.minusSeconds(5), false));
    var pending = Map.of("u1", pod("u1", Map.of("app", "web"), oneWebPerNode("web")), "u2", pod("u2", Map.of("app", "web"), oneWebPerNode("web")));
    assertEquals(Set.of("u1"), PromisedPods.held(claims, pending, rooms(Map.of("node-new", node(Resources.of(4_000, 8 * GIB, 10)))), NOW));
  }

  @Test
  void aNodeCordonedOrTaintedSinceThePlanHoldsOnlyThePodsThatMayStillGoThere() {
    // Cordoned (or being deleted, or disrupted): the kube-scheduler binds nothing new there, so no pod waits for it.
    var cordoned = List.of(claim("cordoned", "u1", NOW.minusSeconds(5), false));
    var closed = node(Resources.of(4_000, 8 * GIB, 10), List.of(), false);
    assertEquals(Set.of(), PromisedPods.held(cordoned, pending("u1"), rooms(Map.of("node-cordoned", closed)), NOW));

    // Tainted NoSchedule since: only a pod tolerating the taint may still go; a PreferNoSchedule taint keeps none off.
    var tainted = List.of(claim("tainted", "u1,u2", NOW.minusSeconds(5), false));
    var maintenance = new Taint("example.com/maintenance", "", "NoSchedule");
    var node = node(Resources.of(4_000, 8 * GIB, 10), List.of(maintenance, new Taint("example.com/busy", "", "PreferNoSchedule")), true);
    var tolerating = new PodSpecView(new PodRef("ns", "u2", "u2"), Resources.of(1_000, GIB, 1), Map.of(), List.of(),
        List.of(new Toleration("example.com/maintenance", "Exists", null, "NoSchedule")), "ReplicaSet", false, Map.of(), List.of(), List.of(),
        List.of(), List.of());
    var pending = Map.of("u1", pod("u1", Map.of(), List.of()), "u2", tolerating);
    assertEquals(Set.of("u2"), PromisedPods.held(tainted, pending, rooms(Map.of("node-tainted", node)), NOW));
  }

  private static List<PodAffinityTerm> oneWebPerNode(String app) {
    return List.of(new PodAffinityTerm(WellKnown.HOSTNAME_LABEL, PodSelector.of(Map.of("app", app), List.of()), Set.of(), false, true, true, 0));
  }

  private static PodSpecView pod(String uid, Map<String, String> labels, List<PodAffinityTerm> affinity) {
    return new PodSpecView(new PodRef("ns", uid, uid), Resources.of(1_000, GIB, 1), Map.of(), List.of(), List.of(), "ReplicaSet", false,
        labels, List.of(), List.of(), affinity, List.of());
  }

  /** A registered node with {@code free} room besides the requests of the {@code bound} pods. */
  private static ExistingNodeView node(Resources free, PodSpecView... bound) {
    Resources allocatable = free;
    for (PodSpecView p : bound) {
      allocatable = allocatable.plus(p.requestsAsOnePod());
    }
    return new ExistingNodeView("n", "pool", Map.of(), List.of(), allocatable, List.of(bound), Resources.ZERO, true, true);
  }

  /** A registered node with {@code free} room, no pods, these taints, and cordoned unless it {@code accepts} pods. */
  private static ExistingNodeView node(Resources free, List<Taint> taints, boolean accepts) {
    return new ExistingNodeView("n", "pool", Map.of(), taints, free, List.of(), Resources.ZERO, true, accepts);
  }

  private static Function<String, NodeRoom> rooms(Map<String, ExistingNodeView> nodes) {
    return name -> nodes.containsKey(name) ? NodeRoom.of(nodes.get(name)) : null;
  }

  /** Pending pods of one CPU and 1 GiB each, no labels or affinity. */
  private static Map<String, PodSpecView> pending(String... uids) {
    Map<String, PodSpecView> out = new HashMap<>();
    for (String uid : uids) {
      out.put(uid, pod(uid, Map.of(), List.of()));
    }
    return out;
  }
}
