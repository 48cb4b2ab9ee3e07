package dev.farrier.activities.provisioning;

import dev.farrier.activities.events.RecentKeys;
import dev.farrier.activities.kube.EventSink;
import dev.farrier.activities.kube.ClusterEvent;
import dev.farrier.activities.kube.PodEvent;
import dev.farrier.model.UnschedulablePod;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warning Events ({@code FailedScheduling}, reporting component {@code farrier}) on pods no NodePool can take, with
 * the planner's reason. A pending pod is planned again on every batch and every informer resync, so the same reason
 * must not turn into an Event write each time: a per-worker memory of what was recorded when skips repeats within
 * the window without any API call, and the stored Event (named after pod UID, reason and message, with its
 * lastTimestamp) dedupes across worker restarts. A new reason is recorded at once.
 */
public final class UnschedulableEvents {
  private static final Logger log = LoggerFactory.getLogger(UnschedulableEvents.class);
  static final String REASON = "FailedScheduling";
  /** How long the same reason for the same pod is not recorded again (planning repeats every batch, up to every 10 s). */
  public static final Duration WINDOW = Duration.ofMinutes(10);

  private final EventSink cluster;
  private final Clock clock;
  private final Duration window;
  private final RecentKeys recorded;

  public UnschedulableEvents(EventSink cluster, Clock clock, Duration window) {
    this.cluster = cluster;
    this.clock = clock;
    this.window = window;
    this.recorded = new RecentKeys(window);
  }

  /** Records what is new; an API failure is logged and skipped (the next planning round tries again). */
  public void record(List<UnschedulablePod> pods) {
    Instant now = clock.instant();
    for (UnschedulablePod u : pods) {
      String key = u.pod().uid() + "\n" + u.reason();
      if (recorded.recent(key, now)) {
        continue;
      }
      try {
        cluster.recordPodEvent(new PodEvent(u.pod().namespace(), u.pod().name(), u.pod().uid(), ClusterEvent.WARNING, REASON,
            "Farrier cannot provision capacity for this pod: " + u.reason()), window);
        recorded.recorded(key, now);
      } catch (RuntimeException e) {
        log.warn("unschedulable pod event not recorded pod={} error={}", u.pod().key(), e.toString());
      }
    }
  }
}
