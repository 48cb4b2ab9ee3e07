package dev.farrier.activities.interruption;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What this worker's interruption activities saw since it started. Malformed messages are never retried, so this
 * count (logged with every malformed message, and by the worker when it stops) is where a misrouted EventBridge
 * rule shows.
 */
public final class InterruptionCounters {
  private final AtomicLong received = new AtomicLong();
  private final AtomicLong notices = new AtomicLong();
  private final AtomicLong malformed = new AtomicLong();
  private final AtomicLong ignored = new AtomicLong();
  private final AtomicLong deleted = new AtomicLong();
  private final AtomicLong deleteFailures = new AtomicLong();

  public void received(int n) {
    received.addAndGet(n);
  }

  public void notice() {
    notices.incrementAndGet();
  }

  public long malformed() {
    return malformed.incrementAndGet();
  }

  public void ignored() {
    ignored.incrementAndGet();
  }

  public void deleted(int n, int failures) {
    deleted.addAndGet(n);
    deleteFailures.addAndGet(failures);
  }

  public long receivedCount() {
    return received.get();
  }

  public long malformedCount() {
    return malformed.get();
  }

  public long deletedCount() {
    return deleted.get();
  }

  @Override
  public String toString() {
    return "received=" + received + " notices=" + notices + " malformed=" + malformed + " ignored=" + ignored
        + " deleted=" + deleted + " deleteFailures=" + deleteFailures;
  }
}
