package dev.farrier.worker;

import dev.farrier.activities.InterruptionActivitiesImpl;
import dev.farrier.activities.NodeActivitiesImpl;
import dev.farrier.activities.NodeClaimActivitiesImpl;
import dev.farrier.activities.PlanningActivitiesImpl;
import dev.farrier.activities.RolloutActivitiesImpl;
import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.kube.Cluster;
import dev.farrier.activities.kube.Fabric8Cluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.farrier.worker.config.WorkerSettings;
import dev.farrier.workflows.FarrierWorkflows;
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
      InterruptionResources interruption) {
    var factory = WorkerFactory.newInstance(client);
    var worker = factory.newWorker(settings.taskQueue());
    worker.registerWorkflowImplementationTypes(FarrierWorkflows.implementationTypes());
    CloudProvider provider = cloud.provider();
    var workflows = new TemporalWorkflowStatus(client);
    worker.registerActivitiesImplementations(
        new PlanningActivitiesImpl(cluster, provider, new TemporalReplacementTracker(client, settings.clusterName())),
        new NodeClaimActivitiesImpl(cluster, provider),
        new NodeActivitiesImpl(cluster),
        new RolloutActivitiesImpl(cluster, cluster, provider, workflows::running, settings.reconciler(),
            workflows.freezeOf(settings.clusterName())));
    if (interruption.enabled()) {
      worker.registerActivitiesImplementations(
          new InterruptionActivitiesImpl(interruption.aws().sqs(), cluster, provider, interruption.counters()));
    }
    return factory;
  }
}
