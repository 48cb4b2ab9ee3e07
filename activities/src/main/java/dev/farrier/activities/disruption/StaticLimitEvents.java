package dev.farrier.activities.disruption;

import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.events.WindowedEvents;
import dev.farrier.activities.kube.ClusterEvent;
import dev.farrier.activities.kube.EventSink;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Warning Event ({@value #REASON}) on a static NodePool whose {@code replicas} exceed its {@code limits.nodes}
 * ({@link dev.farrier.model.DisruptionPlan#staticHeld()}): it keeps at most the limit. Told at most once per
 * {@link #WINDOW} per NodePool from a per-worker memory, as the round runs every 10 s.
 */
final class StaticLimitEvents {
  private static final Logger log = LoggerFactory.getLogger(StaticLimitEvents.class);
  static final String REASON = "NodePoolNodeLimitReached";
  static final Duration WINDOW = Duration.ofMinutes(15);

  private final WindowedEvents events;

  StaticLimitEvents(EventSink events, Clock clock) {
    this.events = new WindowedEvents(events, clock, WINDOW);
  }

  /** Records what was not recorded within the window; an API failure is logged and tried again next round. */
  void record(Map<String, String> held) {
    held.forEach((pool, why) -> {
      if (events.record(pool, new ClusterEvent(NodePool.KIND, pool, ClusterEvent.WARNING, REASON, why))) {
        log.warn("static nodepool held by its node limit nodepool={} why=\"{}\"", pool, why);
      }
    });
  }
}
