package dev.farrier.activities;

import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.kube.ClusterEvent;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.workflows.planner.Repair;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

  private final EventSink events;
  private final Clock clock;
  private final Map<String, Instant> recorded = new HashMap<>();

  RepairBlockedEvents(EventSink events, Clock clock) {
    this.events = events;
    this.clock = clock;
  }

  /** Records what was not recorded within the window; an API failure is logged and tried again next round. */
  void record(List<Repair.Blocked> blocked) {
    Instant now = clock.instant();
    for (Repair.Blocked b : blocked) {
      synchronized (recorded) {
        Instant last = recorded.get(b.nodePool());
        if (last != null && last.isAfter(now.minus(WINDOW))) {
          continue;
        }
      }
      log.warn("node repair held nodepool={} unhealthy={} nodes={} allowed={}", b.nodePool(), b.unhealthy(), b.nodes(), b.allowed());
      try {
        events.recordEvent(new ClusterEvent(NodePool.KIND, b.nodePool(), ClusterEvent.WARNING, Repair.BLOCKED_EVENT_REASON, b.message()));
        synchronized (recorded) {
          recorded.put(b.nodePool(), now);
        }
      } catch (RuntimeException e) {
        log.warn("node repair event not recorded nodepool={} error={}", b.nodePool(), e.toString());
      }
    }
  }
}
