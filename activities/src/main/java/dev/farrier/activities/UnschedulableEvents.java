package dev.farrier.activities;

import dev.farrier.activities.kube.EventSink;
import dev.farrier.activities.kube.ClusterEvent;
import dev.farrier.activities.kube.PodEvent;
import dev.farrier.workflows.model.UnschedulablePod;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warning Events ({@code FailedScheduling}, reporting component {@code farrier}) on pods no NodePool can take, with
 * the planner's reason. A pending pod is planned again on every batch and every informer resync, so the same reason
 * must not turn into an Event write each time: a per-worker memory of what was recorded when skips repeats within
 * the window without any API call, and the stored Event (named after pod UID, reason and message, with its
 * lastTimestamp) dedupes across worker restarts. A new reason is recorded at once.
 */
final class UnschedulableEvents {
  private static final Logger log = LoggerFactory.getLogger(UnschedulableEvents.class);
  static final String REASON = "FailedScheduling";
  private static final int MEMORY = 10_000;

  private final EventSink cluster;
  private final Clock clock;
  private final Duration window;
  private final Map<String, Instant> recorded = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
      return size() > MEMORY;
    }
  };

  UnschedulableEvents(EventSink cluster, Clock clock, Duration window) {
    this.cluster = cluster;
    this.clock = clock;
    this.window = window;
  }

  /** Records what is new; an API failure is logged and skipped (the next planning round tries again). */
  void record(List<UnschedulablePod> pods) {
    Instant now = clock.instant();
    for (UnschedulablePod u : pods) {
      String key = u.pod().uid() + "\n" + u.reason();
      synchronized (recorded) {
        Instant last = recorded.get(key);
        if (last != null && last.isAfter(now.minus(window))) {
          continue;
        }
      }
      try {
        cluster.recordPodEvent(new PodEvent(u.pod().namespace(), u.pod().name(), u.pod().uid(), ClusterEvent.WARNING, REASON,
            "Farrier cannot provision capacity for this pod: " + u.reason()), window);
        synchronized (recorded) {
          recorded.put(key, now);
        }
      } catch (RuntimeException e) {
        log.warn("unschedulable pod event not recorded pod={} error={}", u.pod().key(), e.toString());
      }
    }
  }
}
