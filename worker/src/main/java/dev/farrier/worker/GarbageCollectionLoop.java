package dev.farrier.worker;

import dev.farrier.activities.gc.GarbageCollector;
import dev.farrier.worker.config.WorkerSettings;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the {@link GarbageCollector} every {@code farrier.gc.interval}. A plain loop like {@link StatusLoop}: each pass
 * decides afresh from the cluster and the cloud, and each of its steps is idempotent; it runs on the leader only
 * ({@link LeaderLoops}), so one replica acts at a time. It reads the cluster live, never from the informer cache
 * (see {@link TemporalWorkerFactory}).
 */
@Singleton
public class GarbageCollectionLoop implements LeaderLoops.Loop {
  private static final Logger log = LoggerFactory.getLogger(GarbageCollectionLoop.class);

  private final Provider<GarbageCollector> collectors;
  private final long periodMillis;
  private GarbageCollector collector;
  private ScheduledExecutorService executor;

  /** @param collectors a new collector on each call ({@link TemporalWorkerFactory#garbageCollector}) */
  public GarbageCollectionLoop(WorkerSettings settings, Provider<GarbageCollector> collectors) {
    this.collectors = collectors;
    this.periodMillis = settings.gc().interval().toMillis();
  }

  /**
   * A new collector each time this worker leads: what it saw gone in an earlier term may have been seen alive by
   * another leader since, so sightings never carry from one term to the next.
   */
  @Override
  public void start() {
    collector = collectors.get();
    executor = Daemons.scheduler("farrier-gc");
    executor.scheduleWithFixedDelay(this::pass, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }

  private void pass() {
    try {
      collector.collect();
    } catch (RuntimeException e) {
      // The next pass tries again; a failing API must not kill the loop.
      log.warn("garbage collection failed: {}", e.toString());
    }
  }

  @Override
  public boolean stop() {
    return Daemons.stop(executor);
  }
}
