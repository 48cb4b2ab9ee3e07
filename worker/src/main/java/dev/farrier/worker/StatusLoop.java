package dev.farrier.worker;

import dev.farrier.activities.kube.Cluster;
import dev.farrier.activities.status.StatusRefresher;
import dev.farrier.worker.config.WorkerSettings;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the {@link StatusRefresher} every 10 seconds. It is a plain loop, not a workflow: status is derived afresh
 * on every pass, so there is nothing to make durable, and several workers running it write the same values.
 */
@Singleton
public class StatusLoop implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StatusLoop.class);
  static final long PERIOD_SECONDS = 10;

  private final StatusRefresher refresher;
  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
    var t = new Thread(r, "farrier-status");
    t.setDaemon(true);
    return t;
  });

  public StatusLoop(Cluster cluster, CloudResources cloud, WorkerSettings settings) {
    this.refresher = new StatusRefresher(cluster, cloud.provider(), settings.clusterName(), Clock.systemUTC());
  }

  public void start() {
    executor.scheduleWithFixedDelay(this::pass, 0, PERIOD_SECONDS, TimeUnit.SECONDS);
  }

  private void pass() {
    try {
      refresher.refresh();
    } catch (RuntimeException e) {
      // The next pass tries again; a stuck API server must not kill the loop.
      log.warn("status refresh failed: {}", e.toString());
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
