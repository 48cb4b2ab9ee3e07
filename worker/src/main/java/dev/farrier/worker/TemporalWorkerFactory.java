package dev.farrier.worker;

import dev.farrier.activities.disruption.DisruptionSnapshots;
import dev.farrier.activities.provisioning.PlanningInputs;
import dev.farrier.activities.rollout.RolloutPreviews;
import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.MeteredCloudProvider;
import dev.farrier.activities.drain.NodeActivitiesImpl;
import dev.farrier.activities.interruption.InterruptionActivitiesImpl;
import dev.farrier.activities.kube.Cluster;
import dev.farrier.activities.kube.ClusterCache;
import dev.farrier.activities.metrics.BoundedRefresh;
import dev.farrier.activities.metrics.state.InstanceTypeMetrics;
import dev.farrier.activities.kube.Fabric8Cluster;
import dev.farrier.activities.gc.GarbageCollector;
import dev.farrier.activities.gc.GcPolicy;
import dev.farrier.activities.launch.NodeClaimActivitiesImpl;
import dev.farrier.activities.planning.PlanningActivitiesImpl;
import dev.farrier.activities.rollout.RolloutActivitiesImpl;
import dev.farrier.activities.status.StatusRefresher;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.farrier.worker.config.WorkerSettings;
import dev.farrier.workflows.types.FarrierWorkflows;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Primary;
import io.micronaut.context.annotation.Prototype;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Named;
import io.temporal.client.WorkflowClient;
import io.micronaut.context.annotation.Bean;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;

/** Registers every workflow type and activity implementation on the cluster's task queue. */
@Factory
public class TemporalWorkerFactory {
  /** The name of the {@link Cluster} whose lists are never cached. */
  public static final String LIVE = "live";

  /**
   * Every cached workflow's code on a virtual thread. With platform threads a burst of 1,000 launches held about 250
   * cached workflows' threads (of 546 in the JVM), each with its own stack outside the heap
   * (docs/benchmarks/worker-memory.md); a parked virtual thread's stack is a few heap objects. The cache size stays
   * the SDK's.
   */
  static final WorkerFactoryOptions FACTORY_OPTIONS = WorkerFactoryOptions.newBuilder().setUsingVirtualWorkflowThreads(true).build();

  /**
   * Activities stay on platform threads (the SDK's 200 slots). On virtual threads their CPU-bound work (planning, the
   * cloud's JSON) shared the few carrier threads with workflow tasks, whose schedule-to-start p99 with 200 concurrent
   * replacements rose from about 6 s to 14.5 s (docs/benchmarks/concurrent-replacements.md).
   */
  static final WorkerOptions WORKER_OPTIONS = WorkerOptions.newBuilder().setUsingVirtualThreads(false).build();

  /** The informers every planning read is served from; started with the worker, synced before it reports ready. */
  @Singleton
  @Bean(preDestroy = "close")
  ClusterCache clusterCache(KubernetesClient kube) {
    return ClusterCache.start(kube);
  }

  /** The cluster as activities and loops see it: lists from the cache, gets and writes to the API server. */
  @Singleton
  @Primary
  @Bean(preDestroy = "close")
  Fabric8Cluster cluster(KubernetesClient kube, ClusterCache cache) {
    return new Fabric8Cluster(kube, cache);
  }

  /**
   * Lists from the API server on every call, for the garbage collector: a claim created a moment ago and not yet in a
   * cache (or one whose watch is reconnecting) must never make its instance look orphaned.
   */
  @Singleton
  @Named(LIVE)
  @Bean(preDestroy = "close")
  Fabric8Cluster liveCluster(KubernetesClient kube) {
    return new Fabric8Cluster(kube);
  }

  /** The status pass ({@link StatusLoop}) over the cached cluster. */
  @Singleton
  StatusRefresher statusRefresher(Fabric8Cluster cluster, CloudResources cloud, WorkerSettings settings, MeterRegistry meters) {
    return new StatusRefresher(cluster, metered(cloud.provider(), "status", settings, meters), settings.clusterName(), Clock.systemUTC());
  }

  /**
   * The instance type gauges, refreshed at each scrape from the provider's cached catalogue (not metered: see the
   * class), waited for at most 2 s: a catalogue that loads slowly or not at all leaves the scrape on time.
   */
  @Singleton
  @Bean(preDestroy = "close")
  BoundedRefresh instanceTypeMetrics(CloudResources cloud, MeterRegistry meters) {
    var gauges = new InstanceTypeMetrics(cloud.provider(), meters);
    return new BoundedRefresh("farrier-instance-type-gauges", gauges::refresh, Duration.ofSeconds(2));
  }

  /** A new garbage collector on each lookup ({@link GarbageCollectionLoop} takes one per term it leads), reading live. */
  @Prototype
  GarbageCollector garbageCollector(@Named(LIVE) Fabric8Cluster cluster, CloudResources cloud, WorkerSettings settings,
      MeterRegistry meters) {
    var gc = settings.gc();
    return new GarbageCollector(cluster, metered(cloud.provider(), "gc", settings, meters), cloud.sweep(), settings.clusterName(),
        Clock.systemUTC(), new GcPolicy(gc.grace(), gc.confirmAfter(), gc.maxGoneShare()), meters);
  }

  @Singleton
  WorkerFactory workerFactory(WorkflowClient client, WorkerSettings settings, Cluster cluster, CloudResources cloud,
      InterruptionResources interruption, MeterRegistry meters,
      @Value("${farrier.feature-gates.spot-to-spot-consolidation}") boolean spotToSpotConsolidation) {
    var factory = WorkerFactory.newInstance(client, FACTORY_OPTIONS);
    var worker = factory.newWorker(settings.taskQueue(), WORKER_OPTIONS);
    worker.registerWorkflowImplementationTypes(FarrierWorkflows.implementationTypes());
    var workflows = new TemporalWorkflowStatus(client);
    var freezeOf = workflows.freezeOf(settings.clusterName());
    var tracker = new TemporalReplacementTracker(client, settings.clusterName());
    CloudProvider previewCloud = metered(cloud.provider(), "preview", settings, meters);
    worker.registerActivitiesImplementations(
        new PlanningActivitiesImpl(cluster, metered(cloud.provider(), "planning", settings, meters),
            tracker, meters, spotToSpotConsolidation, freezeOf),
        new RolloutPreviews(cluster, cluster, previewCloud, new DisruptionSnapshots(cluster, tracker,
            new PlanningInputs(cluster, previewCloud), Clock.systemUTC(), spotToSpotConsolidation),
            new TemporalReplacementHistory(client, settings.clusterName()), workflows::running, freezeOf),
        new NodeClaimActivitiesImpl(cluster, metered(cloud.provider(), "nodeclaim", settings, meters), meters),
        new NodeActivitiesImpl(cluster, meters),
        new RolloutActivitiesImpl(cluster, cluster, cluster, metered(cloud.provider(), "rollout", settings, meters), workflows::running, settings.reconciler(),
            workflows::closedReplacement));
    if (interruption.enabled()) {
      worker.registerActivitiesImplementations(new InterruptionActivitiesImpl(interruption.aws().sqs(), cluster,
          metered(cloud.provider(), "interruption", settings, meters), interruption.counters(), interruption::stopping));
    }
    return factory;
  }

  /** The cloud as {@code controller} calls it: timed and its errors counted ({@link MeteredCloudProvider}). */
  private static CloudProvider metered(CloudProvider cloud, String controller, WorkerSettings settings, MeterRegistry meters) {
    return new MeteredCloudProvider(cloud, meters, controller, settings.cloud());
  }
}
