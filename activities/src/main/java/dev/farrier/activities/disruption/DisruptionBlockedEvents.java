package dev.farrier.activities.disruption;

import dev.farrier.activities.events.WindowedEvents;
import dev.farrier.activities.kube.ClusterEvent;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.model.CandidateDecision;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Karpenter-style {@code DisruptionBlocked} Events on the Node of a consolidation candidate that something holds (a
 * PodDisruptionBudget, do-not-disrupt, a budget, a change freeze, a nomination, pods that would not fit, a replacement
 * that would not be cheaper): {@code Cannot disrupt Node: <why>}, from the same decision {@code farrier plan} shows, at
 * most once per node and message per {@link #WINDOW}.
 */
final class DisruptionBlockedEvents {
  static final String REASON = "DisruptionBlocked";
  static final Duration WINDOW = Duration.ofMinutes(10);
  private static final String UNDERUTILIZED = "underutilized but ";
  private static final String EMPTY = "empty (";

  private final WindowedEvents events;

  DisruptionBlockedEvents(EventSink events, Clock clock) {
    this.events = new WindowedEvents(events, clock, WINDOW);
  }

  /** Records the held consolidation candidates among {@code decisions}. */
  void record(List<CandidateDecision> decisions) {
    for (CandidateDecision d : decisions) {
      String why = blocked(d);
      if (why != null && d.nodeName() != null) {
        events.record(d.nodeName() + "\n" + why, new ClusterEvent("Node", d.nodeName(), ClusterEvent.NORMAL, REASON,
            "Cannot disrupt Node: " + why));
      }
    }
  }

  /** Why a consolidation candidate is held, from its decision; null for every other decision. */
  static String blocked(CandidateDecision d) {
    if (d.disrupt()) {
      return null;
    }
    int under = d.reason().indexOf(UNDERUTILIZED);
    if (under >= 0) {
      return "underutilized, but " + d.reason().substring(under + UNDERUTILIZED.length());
    }
    int empty = d.reason().indexOf(EMPTY);
    return empty >= 0 && d.reason().indexOf(") but ", empty) > 0 ? d.reason().substring(empty) : null;
  }
}
