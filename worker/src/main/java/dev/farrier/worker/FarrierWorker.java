package dev.farrier.worker;

import dev.farrier.worker.config.WorkerSettings;
import dev.farrier.worker.observability.HealthServer;
import dev.farrier.worker.observability.MetricsServer;
import io.temporal.worker.WorkerFactory;
import jakarta.inject.Singleton;
import dev.farrier.worker.config.LeaderElectionSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micronaut.context.annotation.Value;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the worker: polls the task queue, makes sure the cluster's reconciler is running, and, while it leads
 * ({@link LeaderLoops}), feeds it pending pods from the informer and runs status refresh and garbage collection.
 * Stopping it stops polling; workflows carry on when a worker comes back.
 */
@Singleton
public class FarrierWorker implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FarrierWorker.class);

  private final WorkerSettings settings;
  private final ReconcilerClient reconciler;
  private final InterruptionClient interruption;
  private final InterruptionResources interruptionResources;
  private final WorkerFactory factory;
  static final Duration TEMPORAL_RETRY = Duration.ofSeconds(5);

  private final LeaderLoops loops;
  private final ExecutorService starter = Daemons.scheduler("farrier-start");
  private final AtomicBoolean closing = new AtomicBoolean();
  private final Duration shutdownTimeout;
  private final List<AutoCloseable> resources;
  private final MetricsServer metrics;
  private final HealthServer health;

  public FarrierWorker(WorkerSettings settings, ReconcilerClient reconciler, WorkerFactory factory, PendingPodInformer informer,
      PodEventsLoop podEvents, StatusLoop status, GarbageCollectionLoop gc, HeadroomLoop headroom, CapacitySplitLoop split, CloudResources cloud, InterruptionClient interruption,
      InterruptionResources interruptionResources, KubernetesClient kube, LeaderElectionSettings leaderElection,
      @Value("${farrier.shutdown-timeout}") Duration shutdownTimeout, MetricsServer metrics, HealthServer health) {
    this.settings = settings;
    this.reconciler = reconciler;
    this.interruption = interruption;
    this.interruptionResources = interruptionResources;
    this.factory = factory;
    this.loops = new LeaderLoops(kube, leaderElection, List.of(informer, podEvents, status, gc, headroom, split), FarrierWorker::exitBesideTheNewLeader);
    this.shutdownTimeout = shutdownTimeout;
    this.resources = List.of(cloud, interruptionResources, metrics, health);
    this.metrics = metrics;
    this.health = health;
  }

  /**
   * Starts the loops (on the Lease holder) at once and, in the background, polling and the cluster's long-running
   * workflows: with Temporal unreachable the process stays up, not ready ({@code /readyz} says why), and tries again
   * every {@link #TEMPORAL_RETRY} until Temporal answers; it logs "farrier worker started" once it polls.
   */
  public void start() {
    // Probes and scrapes first: a start that waits on Temporal is visible as not ready rather than as no answer.
    metrics.start();
    health.start();
    loops.start();
    starter.execute(this::startPolling);
  }

  private void startPolling() {
    for (int attempt = 1; !Thread.currentThread().isInterrupted(); attempt++) {
      try {
        factory.start();
        var runId = reconciler.ensureRunning();
        log.info("reconciler running workflowId={} runId={}", reconciler.workflowId(), runId);
        if (settings.interruptionEnabled()) {
          log.info("interruption handling running workflowId={} runId={} queue={}", interruption.workflowId(),
              interruption.ensureRunning(), settings.interruptionQueue());
        } else {
          log.info("interruption handling off (farrier.interruption.queue is empty)");
        }
        log.info("farrier worker started cluster={} taskQueue={} temporal={} cloud={} identity={}",
            settings.clusterName(), settings.taskQueue(), settings.temporalAddress(), settings.cloud(), loops.identity());
        return;
      } catch (RuntimeException e) {
        if (attempt == 1 || attempt % 12 == 0) {
          log.warn("cannot start the cluster's workflows at {} yet (attempt {}), trying again every {}: {}",
              settings.temporalAddress(), attempt, TEMPORAL_RETRY, e.toString());
        }
        try {
          Thread.sleep(TEMPORAL_RETRY.toMillis());
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    }
  }

  /** Leadership lost while a pass will not stop: exit (Kubernetes restarts the pod) rather than act beside the new leader. */
  private static void exitBesideTheNewLeader() {
    new Thread(() -> System.exit(1), "farrier-exit").start();
  }

  /**
   * SIGTERM (the pod is deleted or rolled): stop polling, stop the loops and give the Lease back so the other replica
   * takes them over at once, cut the interruption queue's idle long poll, and let the activities in flight finish
   * within {@code farrier.shutdown-timeout} (shorter than the pod's grace period); one cut short is retried by
   * Temporal on another worker. Once only: the shutdown hook and the application context may both ask.
   */
  @Override
  public void close() {
    if (!closing.compareAndSet(false, true)) {
      return;
    }
    health.shuttingDown();
    starter.shutdownNow();
    factory.shutdown(); // does not block: no new tasks are polled from here on
    interruptionResources.stopReceiving(); // an idle long poll would hold the shutdown for up to 20 s
    loops.close();
    factory.awaitTermination(shutdownTimeout.toMillis(), TimeUnit.MILLISECONDS);
    if (!factory.isTerminated()) {
      log.warn("activities still running after {}; Temporal retries them on another worker", shutdownTimeout);
      factory.shutdownNow();
    }
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
