package dev.farrier.worker;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** The worker's own background threads: named, and daemons, so they never hold the JVM up at shutdown. */
final class Daemons {
  private Daemons() {}

  static ScheduledExecutorService scheduler(String name) {
    return Executors.newSingleThreadScheduledExecutor(r -> {
      var t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
  }

  /** Interrupts the executor's work and waits for it up to {@link LeaderLoops.Loop#STOP_BOUND}; true if it ended. */
  static boolean stop(ExecutorService executor) {
    if (executor == null) {
      return true;
    }
    executor.shutdownNow();
    try {
      return executor.awaitTermination(LeaderLoops.Loop.STOP_BOUND.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
