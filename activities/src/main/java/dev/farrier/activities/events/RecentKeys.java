package dev.farrier.activities.events;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A per-worker memory of what was recorded when, bounded to the {@value #MEMORY} most recent keys: how the planning
 * round's Events skip what they said within their window without an API call.
 */
public final class RecentKeys {
  private static final int MEMORY = 10_000;

  private final Duration window;
  private final Map<String, Instant> recorded = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
      return size() > MEMORY;
    }
  };

  public RecentKeys(Duration window) {
    this.window = window;
  }

  /** Whether {@code key} was recorded less than the window before {@code now}. */
  public synchronized boolean recent(String key, Instant now) {
    Instant last = recorded.get(key);
    return last != null && last.isAfter(now.minus(window));
  }

  public synchronized void recorded(String key, Instant now) {
    recorded.put(key, now);
  }
}
