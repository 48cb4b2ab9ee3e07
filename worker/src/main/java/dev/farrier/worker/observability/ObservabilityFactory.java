package dev.farrier.worker.observability;

import dev.farrier.activities.kube.ClusterCache;
import dev.farrier.activities.metrics.state.ClusterStateMetrics;
import dev.farrier.activities.metrics.state.NodeMetrics;
import dev.farrier.activities.metrics.state.PodStateMetrics;
import dev.farrier.worker.config.WorkerSettings;
import io.temporal.client.WorkflowClient;
import java.time.Clock;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.temporal.serviceclient.WorkflowServiceStubs;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * The one meter registry of the process: activities, the garbage collector and the Temporal SDK record into it, and
 * {@link MetricsServer} serves it. Injected wherever a meter is recorded, never reached through
 * {@code Metrics.globalRegistry}, so a test gives each component its own. And readiness, on the worker's own Temporal
 * connection and Kubernetes configuration.
 */
@Factory
public class ObservabilityFactory {
  @Singleton
  @Bean(preDestroy = "close")
  PrometheusMeterRegistry meterRegistry() {
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    BuildInfo.register(registry);
    return registry;
  }

  /** Karpenter's cluster state, NodePool and pod startup metrics, from the informer cache. */
  @Context
  @Bean(preDestroy = "close")
  ClusterStateMetrics clusterStateMetrics(ClusterCache cache, PrometheusMeterRegistry registry) {
    return new ClusterStateMetrics(cache, registry, Clock.systemUTC());
  }

  /** Karpenter's per-node resource gauges, from the informer cache. */
  @Singleton
  NodeMetrics nodeMetrics(ClusterCache cache, PrometheusMeterRegistry registry) {
    return new NodeMetrics(cache, registry, Clock.systemUTC());
  }

  /** {@code karpenter_pods_state}, from the informer cache. */
  @Singleton
  PodStateMetrics podStateMetrics(ClusterCache cache, PrometheusMeterRegistry registry) {
    return new PodStateMetrics(cache, registry);
  }

  /** Farrier's replacements, rollouts and blocked workflows, from Temporal's visibility. */
  @Singleton
  @Bean(preDestroy = "close")
  WorkflowGauges workflowGauges(WorkflowClient client, WorkerSettings settings, PrometheusMeterRegistry registry) {
    return new WorkflowGauges(client, settings.clusterName(), registry);
  }

  /** Bound when the worker starts, whether or not anything else asks for it. */
  @Context
  @Bean(preDestroy = "close")
  JvmMeters jvmMeters(PrometheusMeterRegistry registry) {
    return new JvmMeters(registry);
  }

  @Singleton
  @Bean(preDestroy = "close")
  KubernetesCheck kubernetesCheck(KubernetesClient kube) {
    return new KubernetesCheck(kube);
  }

  @Singleton
  @Bean(preDestroy = "close")
  Readiness readiness(WorkflowServiceStubs stubs, KubernetesCheck kubernetes, ClusterCache cache) {
    return new Readiness(List.of(new TemporalCheck(stubs), kubernetes, new ClusterCacheCheck(cache)));
  }
}
