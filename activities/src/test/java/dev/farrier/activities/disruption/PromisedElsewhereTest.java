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
    return new NodeClaimView(name, "default", "default", node, "i-" + name, "ami", "amd64", "hash", "on-demand", "m5.large", "us-east-1a",
        true, true, false, disrupted, false, false, 0L, null, null, null, new PodsOnNode(1, 1, List.of()), false, false, null, null, nominated);
  }

  @Test
  void theOtherClaimsOfAGroupWaitWhileTheClaimReplacedForThemIsBeingDisrupted() {
    var follower = new NodeClaim();
    follower.setMetadata(new ObjectMetaBuilder().withName("f").withAnnotations(Map.of(WellKnown.CONSOLIDATED_WITH_ANNOTATION, "lead")).build());
    Map<String, NodeClaim> claims = Map.of("f", follower);
    Map<String, List<Pod>> pods = Map.of("node-f", List.of(pod("u1")));

    assertEquals(Map.of("node-f", "consolidated with nodeclaim lead, whose replacement is being made ready for its pods"),
        PromisedElsewhere.of(List.of(view("lead", "node-lead", null, true), view("f", "node-f", null)), claims, pods, null));
    assertEquals(Map.of(), PromisedElsewhere.of(List.of(view("lead", "node-lead", null, true), view("f", "node-f", null)),
        claims, pods, "lead"), "the lead's own recheck weighs its group");
    assertEquals(Map.of(), PromisedElsewhere.of(List.of(view("lead", "node-lead", null, false), view("f", "node-f", null)),
        claims, pods, null), "a lead no longer being disrupted (its consolidation was cancelled) holds nothing");
    assertEquals(Map.of(), PromisedElsewhere.of(List.of(view("f", "node-f", null)), claims, pods, null), "nor a gone one");
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

    var held = PromisedElsewhere.of(views, Map.of("r", replacement), pods, null);

    assertEquals(Map.of("node-b", "its pods are promised to nodeclaim r, which holds room for them"), held,
        "b's pod is promised to r; c's is not; r's own pod is not held");
    // b's own consolidation, checked again, is not held by the replacement it is moving its pods to.
    assertEquals(Map.of(), PromisedElsewhere.of(views, Map.of("r", replacement), pods, "b"));
    // Once the replacement no longer holds room (not nominated), nothing waits for it.
    var later = List.of(view("r", "node-r", null), view("b", "node-b", null));
    assertEquals(Map.of(), PromisedElsewhere.of(later, Map.of("r", replacement), pods, null));
  }
}
