package dev.farrier.activities.events;

import dev.farrier.activities.kube.ClusterEvent;
import dev.farrier.activities.kube.EventSink;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Events the planning round would otherwise repeat every 10 s, recorded at most once per window and key from a
 * per-worker memory (a restarted or newly leading worker says each once more). A failed write is logged and tried
 * again next round.
 */
public final class WindowedEvents {
  private static final Logger log = LoggerFactory.getLogger(WindowedEvents.class);
  private final EventSink events;
  private final Clock clock;
  private final RecentKeys recorded;

  public WindowedEvents(EventSink events, Clock clock, Duration window) {
    this.events = events;
    this.clock = clock;
    this.recorded = new RecentKeys(window);
  }

  /** Records {@code event} unless one with the same {@code key} was recorded within the window; true when it wrote. */
  public boolean record(String key, ClusterEvent event) {
    Instant now = clock.instant();
    if (recorded.recent(key, now)) {
      return false;
    }
    try {
      events.recordEvent(event);
      recorded.recorded(key, now);
      return true;
    } catch (RuntimeException e) {
      log.warn("event not recorded kind={} name={} reason={} error={}", event.kind(), event.name(), event.reason(), e.toString());
      return false;
    }
  }
}
