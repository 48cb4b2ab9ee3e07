package dev.farrier.activities.disruption;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.NodeClaimView;
import dev.farrier.planner.PodsOnNode;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which nodes wait for a home already being made ready for their pods. */
class PromisedElsewhereTest {
  private static final Instant NOW = Instant.parse("2026-11-25T02:00:00Z");

  private static NodeClaimView view(String name, String node, String nominated) {
    return view(name, node, nominated, false);
  }

  private static NodeClaimView view(String name, String node, String nominated, boolean disrupted) {
    return view(name, node, nominated, disrupted, true);
  }

  private static NodeClaimView view(String name, String node, String nominated, boolean disrupted, boolean initialized) {
    return view(name, node, nominated, disrupted, initialized, 0L);
  }

  private static NodeClaimView view(String name, String node, String nominated, boolean disrupted, boolean initialized, long created) {
    return new NodeClaimView(name, "default", "default", node, "i-" + name, "ami", "amd64", "hash", "on-demand", "m5.large", "us-east-1a",
        true, initialized, false, disrupted, false, false, created, null, null, null, new PodsOnNode(1, 1, List.of()), false, false, null,
        null, nominated);
  }

  private static Map<String, String> held(List<NodeClaimView> views, Map<String, NodeClaim> claims, Map<String, List<Pod>> pods,
      String rechecking) {
    return PromisedElsewhere.of(views, claims, pods, rechecking).held();
  }

  @Test
  void theOtherClaimsOfAGroupWaitWhileTheClaimReplacedForThemIsBeingDisrupted() {
    var follower = new NodeClaim();
    follower.setMetadata(new ObjectMetaBuilder().withName("f").withAnnotations(Map.of(WellKnown.CONSOLIDATED_WITH_ANNOTATION, "lead")).build());
    Map<String, NodeClaim> claims = Map.of("f", follower);
    Map<String, List<Pod>> pods = Map.of("node-f", List.of(pod("u1")));

    assertEquals(Map.of("node-f", "consolidated with nodeclaim lead, whose replacement is being made ready for its pods"),
        held(List.of(view("lead", "node-lead", null, true), view("f", "node-f", null)), claims, pods, null));
    assertEquals(Map.of(), held(List.of(view("lead", "node-lead", null, true), view("f", "node-f", null)),
        claims, pods, "lead"), "the lead's own recheck weighs its group");
    assertEquals(Map.of(), held(List.of(view("lead", "node-lead", null, false), view("f", "node-f", null)),
        claims, pods, null), "a lead no longer being disrupted (its consolidation was cancelled) holds nothing");
    assertEquals(Map.of(), held(List.of(view("f", "node-f", null)), claims, pods, null), "nor a gone one");
  }

  private static Pod pod(String uid) {
    return new PodBuilder().withNewMetadata().withName("p-" + uid).withUid(uid).endMetadata().build();
  }

  @Test
  void aNodeWhosePodsANominatedClaimWasLaunchedForIsHeldForIt() {
    var replacement = PodEventTimesTest.claim("u1,u2", NOW.minusSeconds(5));
    replacement.getMetadata().setName("r");
    var views = List.of(view("r", "node-r", "launched for 2 pods ..."), view("b", "node-b", null), view("c", "node-c", null));
    var pods = Map.of("node-b", List.of(pod("u2")), "node-c", List.of(pod("u9")), "node-r", List.of(pod("u1")));

    var held = held(views, Map.of("r", replacement), pods, null);

    assertEquals(Map.of("node-b", "its pods are promised to nodeclaim r, which holds room for them"), held,
        "b's pod is promised to r; c's is not; r's own pod is not held");
    // b's own consolidation, checked again, is not held by the replacement it is moving its pods to.
    assertEquals(Map.of(), held(views, Map.of("r", replacement), pods, "b"));
    // Once the replacement no longer holds room (not nominated), nothing waits for it.
    var later = List.of(view("r", "node-r", null), view("b", "node-b", null));
    assertEquals(Map.of(), held(later, Map.of("r", replacement), pods, null));
  }

  /**
   * The rest of a multi-node consolidation, once its lead is replaced: the replacement was launched for f's pod too,
   * and is ready, so f's home is there, also while f's own deletion is checked again; not while the replacement is
   * still in flight (f waits), nor for a node outside the group whose pod it was also planned for. f itself, and an
   * older claim, were launched for that pod too (as provisioning annotates every claim): the home is the newest other.
   */
  @Test
  void theRestOfAGroupHasItsHomeOnTheReadyReplacementLaunchedForIt() {
    var replacement = PodEventTimesTest.claim("u1,u2,u3", NOW.minusSeconds(5));
    replacement.getMetadata().setName("r");
    var follower = new NodeClaim();
    follower.setMetadata(new ObjectMetaBuilder().withName("f").withAnnotations(Map.of(WellKnown.CONSOLIDATED_WITH_ANNOTATION, "lead",
        WellKnown.PLANNED_PODS_ANNOTATION, "u2")).build());
    var older = PodEventTimesTest.claim("u2,u4", NOW.minusSeconds(3600));
    older.getMetadata().setName("a-older");
    Map<String, NodeClaim> claims = Map.of("a-older", older, "f", follower, "r", replacement);
    var pods = Map.of("node-f", List.of(pod("u2")), "node-c", List.of(pod("u3")), "node-r", List.of(pod("u1")));
    var ready = List.of(view("a-older", "node-older", null, false, true, 1L), view("f", "node-f", null, false, true, 2L),
        view("r", "node-r", null, false, true, 3L), view("c", "node-c", null));

    var promises = PromisedElsewhere.of(ready, claims, pods, null);
    assertEquals(Map.of("node-f", "node-r"), promises.homes(), "c is not of the group: its pod just happens to be planned for r");
    assertEquals(Map.of(), promises.held());
    assertEquals(Map.of("node-f", "node-r"), PromisedElsewhere.of(ready, claims, pods, "f").homes(), "f's own deletion checked again");

    var inFlight = List.of(view("r", "node-r", "launched for 3 pods ...", false, false), view("f", "node-f", null));
    var waiting = PromisedElsewhere.of(inFlight, claims, pods, null);
    assertEquals(Map.of(), waiting.homes());
    assertEquals(Map.of("node-f", "its pods are promised to nodeclaim r, which holds room for them"), waiting.held());
  }
}
