package dev.farrier.worker;

import dev.farrier.client.TemporalConnection;
import dev.farrier.worker.config.WorkerSettings;
import dev.farrier.worker.observability.TemporalMetrics;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Connections to Temporal and Kubernetes. */
@Factory
public class ClientsFactory {
  @Singleton
  @Bean(preDestroy = "shutdown")
  WorkflowServiceStubs serviceStubs(TemporalConnection connection, MeterRegistry meters) {
    return WorkflowServiceStubs.newServiceStubs(
        connection.serviceStubsOptions().setMetricsScope(TemporalMetrics.scope(meters)).build());
  }

  @Singleton
  WorkflowClient workflowClient(WorkflowServiceStubs stubs, TemporalConnection connection) {
    return WorkflowClient.newInstance(stubs, connection.clientOptions());
  }

  @Singleton
  @Bean(preDestroy = "close")
  KubernetesClient kubernetesClient(WorkerSettings settings) {
    return client(settings.kubeconfig(), "farrier.kubeconfig");
  }

  /** A client from a kubeconfig file, or from the pod's service account (or ~/.kube/config) when {@code kubeconfig} is null. */
  public static KubernetesClient client(Path kubeconfig, String setting) {
    if (kubeconfig == null) {
      return new KubernetesClientBuilder().build();
    }
    try {
      var config = Config.fromKubeconfig(Files.readString(kubeconfig));
      return new KubernetesClientBuilder().withConfig(config).build();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + setting + " " + kubeconfig, e);
    }
  }
}
