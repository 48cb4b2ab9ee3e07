package dev.farrier.worker;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

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
}
