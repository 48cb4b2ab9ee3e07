package dev.farrier.worker.cloud;

import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.gc.CloudSweep;
import dev.farrier.worker.config.WorkerSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micronaut.core.value.PropertyResolver;

/**
 * A cloud the worker can run on, chosen by {@code farrier.cloud}. {@code aws} is built in ({@link AwsCloudPlugin});
 * any other comes as a {@link java.util.ServiceLoader} provider on the class path: the sandbox's {@code simulated}
 * cloud lives in its own module, so the production worker and its image carry no simulated cloud at all.
 */
public interface CloudPlugin {
  /** The value of {@code farrier.cloud} that selects this cloud. */
  String name();

  /**
   * Opens the cloud for this worker. {@code properties} gives the plugin its own settings ({@code farrier.<name>.*}).
   * Throws {@link IllegalArgumentException} with the setting's name when one is missing or wrong.
   */
  OpenCloud open(WorkerSettings settings, KubernetesClient kube, PropertyResolver properties);

  /**
   * An open cloud: the provider, its own garbage sweep ({@link CloudSweep#NONE} if it has none), and what to close
   * with the worker.
   */
  record OpenCloud(CloudProvider provider, CloudSweep sweep, AutoCloseable resources) {}
}
