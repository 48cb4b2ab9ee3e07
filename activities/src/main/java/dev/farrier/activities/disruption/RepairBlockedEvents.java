package dev.farrier.activities.disruption;

import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.events.WindowedEvents;
import dev.farrier.activities.kube.ClusterEvent;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.planner.Repair;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Warning Event ({@value Repair#BLOCKED_EVENT_REASON}) on a NodePool whose node repairs the unhealthy share holds
 * ({@link Repair#blocked()}). The planner runs every 10 s, so a NodePool is told at most once per {@link #WINDOW}
 * (Karpenter's dedupe timeout for this Event), from a per-worker memory: a restarted worker says it once more.
 */
final class RepairBlockedEvents {
  private static final Logger log = LoggerFactory.getLogger(RepairBlockedEvents.class);
  static final Duration WINDOW = Duration.ofMinutes(15);

  private final WindowedEvents events;

  RepairBlockedEvents(EventSink events, Clock clock) {
    this.events = new WindowedEvents(events, clock, WINDOW);
  }

  /** Records what was not recorded within the window; an API failure is logged and tried again next round. */
  void record(List<Repair.Blocked> blocked) {
    for (Repair.Blocked b : blocked) {
      if (events.record(b.nodePool(), new ClusterEvent(NodePool.KIND, b.nodePool(), ClusterEvent.WARNING, Repair.BLOCKED_EVENT_REASON,
          b.message()))) {
        log.warn("node repair held nodepool={} unhealthy={} nodes={} allowed={}", b.nodePool(), b.unhealthy(), b.nodes(), b.allowed());
      }
    }
  }
}
