package dev.farrier.activities.disruption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.farrier.activities.kube.ClusterEvent;
import dev.farrier.activities.kube.RecordingEventSink;
import dev.farrier.model.CandidateDecision;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A held consolidation candidate is told on its Node, once per message per window; nothing else is. */
class DisruptionBlockedEventsTest {
  private static CandidateDecision held(String reason) {
    return new CandidateDecision("c", "node-c", "default", false, reason);
  }

  @Test
  void onlyHeldConsolidationCandidatesAreEvents() {
    assertEquals("underutilized, but PodDisruptionBudget default/web allows no eviction of pod default/web-1 now",
        DisruptionBlockedEvents.blocked(held("not drifted: ...; not empty: 1 pod would need a new home; underutilized but"
            + " PodDisruptionBudget default/web allows no eviction of pod default/web-1 now")));
    assertEquals("empty (no pods to reschedule and consolidateAfter 0s passed) but blocked by karpenter.sh/do-not-disrupt on the node",
        DisruptionBlockedEvents.blocked(held("not drifted: ...; empty (no pods to reschedule and consolidateAfter 0s passed) but"
            + " blocked by karpenter.sh/do-not-disrupt on the node")));
    assertNull(DisruptionBlockedEvents.blocked(held("not drifted: ...; empty but consolidateAfter 30s not reached: ...")),
        "waiting for consolidateAfter holds nothing");
    assertNull(DisruptionBlockedEvents.blocked(held("drifted (image ...) but budget exhausted: ...")), "drift is not consolidation");
    assertNull(DisruptionBlockedEvents.blocked(new CandidateDecision("c", "node-c", "default", true, "underutilized: its 1 pod fits")));
  }

  @Test
  void eachMessageIsToldOncePerWindow() {
    RecordingEventSink sink = new RecordingEventSink();
    List<ClusterEvent> written = sink.recorded;
    var now = new Instant[] {Instant.parse("2026-11-24T12:00:00Z")};
    var clock = new Clock() {
      @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
      @Override public Clock withZone(java.time.ZoneId zone) { return this; }
      @Override public Instant instant() { return now[0]; }
    };
    var events = new DisruptionBlockedEvents(sink, clock);
    var decision = held("x; underutilized but budget for Underutilized exhausted");
    events.record(List.of(decision));
    events.record(List.of(decision));
    assertEquals(1, written.size());
    assertEquals(new ClusterEvent("Node", "node-c", "Normal", "DisruptionBlocked",
        "Cannot disrupt Node: underutilized, but budget for Underutilized exhausted"), written.getFirst());
    now[0] = now[0].plus(DisruptionBlockedEvents.WINDOW).plusSeconds(1);
    events.record(List.of(decision));
    assertEquals(2, written.size(), "told again once the window has passed");
  }
}
