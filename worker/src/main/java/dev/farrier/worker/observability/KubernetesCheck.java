package dev.farrier.worker.observability;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;

/**
 * The Kubernetes API server answers: {@code GET /readyz} (readable by every identity through
 * {@code system:public-info-viewer}) within {@link #TIMEOUT}. Its own client, from the worker's configuration but with no
 * request retries: the shared client's backoff would hold one probe for many seconds past its deadline.
 */
public final class KubernetesCheck implements DependencyCheck, AutoCloseable {
  static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final KubernetesClient client;

  public KubernetesCheck(KubernetesClient shared) {
    this.client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(shared.getConfiguration())
        .withRequestRetryBackoffLimit(0)
        .withConnectionTimeout((int) TIMEOUT.toMillis())
        .withRequestTimeout((int) TIMEOUT.toMillis())
        .build()).build();
  }

  @Override
  public String name() {
    return "kubernetes";
  }

  @Override
  public void check() {
    if (client.raw("/readyz") == null) {
      throw new IllegalStateException("GET /readyz answered 404");
    }
  }

  @Override
  public void close() {
    client.close();
  }
}
