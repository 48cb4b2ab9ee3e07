package dev.farrier.worker;

import dev.farrier.worker.config.WorkerSettings;
import dev.farrier.worker.observability.HealthServer;
import dev.farrier.worker.observability.MetricsServer;
import io.temporal.worker.WorkerFactory;
import jakarta.inject.Singleton;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the worker: polls the task queue, makes sure the cluster's reconciler is running, and feeds it pending
 * pods from the informer. Stopping it stops polling; workflows carry on when a worker comes back.
 */
@Singleton
public class FarrierWorker implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FarrierWorker.class);

  private final WorkerSettings settings;
  private final ReconcilerClient reconciler;
  private final InterruptionClient interruption;
  private final InterruptionResources interruptionResources;
  private final WorkerFactory factory;
  private final PendingPodInformer informer;
  private final StatusLoop status;
  private final GarbageCollectionLoop gc;
  private final List<AutoCloseable> resources;
  private final MetricsServer metrics;
  private final HealthServer health;

  public FarrierWorker(WorkerSettings settings, ReconcilerClient reconciler, WorkerFactory factory, PendingPodInformer informer,
      StatusLoop status, GarbageCollectionLoop gc, CloudResources cloud, InterruptionClient interruption,
      InterruptionResources interruptionResources, MetricsServer metrics, HealthServer health) {
    this.settings = settings;
    this.reconciler = reconciler;
    this.interruption = interruption;
    this.interruptionResources = interruptionResources;
    this.factory = factory;
    this.informer = informer;
    this.status = status;
    this.gc = gc;
    this.resources = List.of(cloud, interruptionResources, metrics, health);
    this.metrics = metrics;
    this.health = health;
  }

  public void start() {
    // Probes and scrapes first: a start that waits on Temporal is visible as not ready rather than as no answer.
    metrics.start();
    health.start();
    factory.start();
    var runId = reconciler.ensureRunning();
    log.info("reconciler running workflowId={} runId={}", reconciler.workflowId(), runId);
    if (settings.interruptionEnabled()) {
      log.info("interruption handling running workflowId={} runId={} queue={}", interruption.workflowId(),
          interruption.ensureRunning(), settings.interruptionQueue());
    } else {
      log.info("interruption handling off (farrier.interruption.queue is empty)");
    }
    informer.start();
    status.start();
    gc.start();
    log.info("farrier worker started cluster={} taskQueue={} temporal={} cloud={}",
        settings.clusterName(), settings.taskQueue(), settings.temporalAddress(), settings.cloud());
  }

  @Override
  public void close() {
    health.shuttingDown();
    informer.close();
    status.close();
    gc.close();
    factory.shutdown();
    if (interruptionResources.enabled()) {
      log.info("interruption messages seen by this worker {}", interruptionResources.counters());
    }
    for (var r : resources) {
      try {
        r.close();
      } catch (Exception e) {
        log.warn("closing {} failed: {}", r, e.toString());
      }
    }
  }
}
