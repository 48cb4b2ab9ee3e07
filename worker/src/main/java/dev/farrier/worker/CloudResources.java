package dev.farrier.worker;

import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.gc.CloudSweep;
import dev.farrier.worker.cloud.AwsCloudPlugin;
import dev.farrier.worker.cloud.CloudPlugin;
import dev.farrier.worker.config.WorkerSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micronaut.context.ApplicationContext;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/** The configured cloud ({@code farrier.cloud}, see {@link CloudPlugin}) and what closes with it. */
@Singleton
public class CloudResources implements AutoCloseable {
  private final CloudPlugin.OpenCloud cloud;

  public CloudResources(WorkerSettings settings, KubernetesClient kube, ApplicationContext context) {
    this.cloud = plugin(settings.cloud(), available()).open(settings, kube, context);
  }

  /** The built-in {@code aws} and every cloud on the class path. */
  static List<CloudPlugin> available() {
    var plugins = new ArrayList<CloudPlugin>();
    plugins.add(new AwsCloudPlugin());
    ServiceLoader.load(CloudPlugin.class).forEach(plugins::add);
    return plugins;
  }

  static CloudPlugin plugin(String name, List<CloudPlugin> available) {
    return available.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow(() -> new IllegalArgumentException(
        "farrier.cloud (FARRIER_CLOUD) '" + name + "' is not in this build; it has: "
            + available.stream().map(CloudPlugin::name).collect(Collectors.joining(", "))
            + " (the simulated cloud ships with the sandbox, not with the worker's image)"));
  }

  public CloudProvider provider() {
    return cloud.provider();
  }

  /** The cloud's own garbage (unused launch templates on AWS), for the garbage collector. */
  public CloudSweep sweep() {
    return cloud.sweep();
  }

  @Override
  public void close() throws Exception {
    cloud.resources().close();
  }
}
