package dev.farrier.worker;

import dev.farrier.activities.InterruptionActivitiesImpl;
import dev.farrier.activities.NodeActivitiesImpl;
import dev.farrier.activities.NodeClaimActivitiesImpl;
import dev.farrier.activities.PlanningActivitiesImpl;
import dev.farrier.activities.RolloutActivitiesImpl;
import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.MeteredCloudProvider;
import dev.farrier.activities.kube.Cluster;
import dev.farrier.activities.kube.Fabric8Cluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.farrier.worker.config.WorkerSettings;
import dev.farrier.workflows.FarrierWorkflows;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Factory;
import io.temporal.client.WorkflowClient;
import io.micronaut.context.annotation.Bean;
import io.temporal.worker.WorkerFactory;
import jakarta.inject.Singleton;

/** Registers every workflow type and activity implementation on the cluster's task queue. */
@Factory
public class TemporalWorkerFactory {
  @Singleton
  @Bean(preDestroy = "close")
  Fabric8Cluster cluster(KubernetesClient kube) {
    return new Fabric8Cluster(kube);
  }

  @Singleton
  WorkerFactory workerFactory(WorkflowClient client, WorkerSettings settings, Cluster cluster, CloudResources cloud,
      InterruptionResources interruption, MeterRegistry meters) {
    var factory = WorkerFactory.newInstance(client);
    var worker = factory.newWorker(settings.taskQueue());
    worker.registerWorkflowImplementationTypes(FarrierWorkflows.implementationTypes());
    var workflows = new TemporalWorkflowStatus(client);
    worker.registerActivitiesImplementations(
        new PlanningActivitiesImpl(cluster, metered(cloud.provider(), "planning", settings, meters),
            new TemporalReplacementTracker(client, settings.clusterName()), meters),
        new NodeClaimActivitiesImpl(cluster, metered(cloud.provider(), "nodeclaim", settings, meters), meters),
        new NodeActivitiesImpl(cluster, meters),
        new RolloutActivitiesImpl(cluster, cluster, metered(cloud.provider(), "rollout", settings, meters), workflows::running, settings.reconciler(),
            workflows.freezeOf(settings.clusterName())));
    if (interruption.enabled()) {
      worker.registerActivitiesImplementations(new InterruptionActivitiesImpl(interruption.aws().sqs(), cluster,
          metered(cloud.provider(), "interruption", settings, meters), interruption.counters()));
    }
    return factory;
  }

  /** The cloud as {@code controller} calls it: timed and its errors counted ({@link MeteredCloudProvider}). */
  private static CloudProvider metered(CloudProvider cloud, String controller, WorkerSettings settings, MeterRegistry meters) {
    return new MeteredCloudProvider(cloud, meters, controller, settings.cloud());
  }
}
