package dev.farrier.activities.temporal;

import io.temporal.activity.Activity;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Heartbeat polling for the await* activities: probe, heartbeat, sleep, until the probe answers. The activity's
 * StartToClose bounds the wait (the workflow decides how long); the heartbeat lets Temporal notice a dead worker
 * within its heartbeat timeout and retry the wait on another worker.
 */
public final class Polling {
  static final Duration INTERVAL = Duration.ofMillis(500);

  private Polling() {}

  public static <T> T until(Supplier<Optional<T>> probe, Supplier<String> progress) {
    return until(probe, progress, INTERVAL);
  }

  public static <T> T until(Supplier<Optional<T>> probe, Supplier<String> progress, Duration interval) {
    while (true) {
      var value = probe.get();
      if (value.isPresent()) {
        return value.get();
      }
      Activity.getExecutionContext().heartbeat(progress.get());
      try {
        Thread.sleep(interval);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while polling", e);
      }
    }
  }
}
