package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.gc.CloudSweep;
import dev.farrier.worker.ClientsFactory;
import dev.farrier.worker.cloud.CloudPlugin;
import dev.farrier.worker.config.WorkerSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micronaut.core.value.PropertyResolver;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * {@code farrier.cloud=simulated}: the {@link SimulatedCloud}, and the simulated kubelet that registers a Node for
 * every running instance (in a real cluster the instance's own kubelet does that). Its settings:
 * <ul>
 *   <li>{@code farrier.simulated.state-dir} (required): where the cloud's state lives, shared with the sandbox;
 *   <li>{@code farrier.simulated.kubernetes-version} (1.35), {@code boot-delay} and {@code terminate-delay} (2s),
 *       {@code device-plugin-delay} (5s: how long a GPU or Neuron node takes to report its devices);
 *   <li>{@code farrier.simulated.kubelet-kubeconfig}: the identity the kubelet registers Nodes with (empty = the
 *       worker's own). A real kubelet is not Farrier, so the sandbox gives it its own credentials and the worker keeps
 *       exactly its RBAC.
 * </ul>
 */
public final class SimulatedCloudPlugin implements CloudPlugin {
  @Override
  public String name() {
    return "simulated";
  }

  @Override
  public OpenCloud open(WorkerSettings settings, KubernetesClient kube, PropertyResolver properties) {
    var stateDir = properties.get("farrier.simulated.state-dir", String.class).filter(s -> !s.isBlank()).orElseThrow(() ->
        new IllegalArgumentException("farrier.simulated.state-dir (FARRIER_SIMULATED_STATE_DIR) is required with farrier.cloud=simulated"));
    var cloud = new SimulatedCloud(new SimulatedCloudConfig(settings.clusterName(), Path.of(stateDir), settings.region(),
        properties.get("farrier.simulated.kubernetes-version", String.class).orElse("1.35"),
        properties.get("farrier.simulated.boot-delay", Duration.class).orElse(Duration.ofSeconds(2)),
        properties.get("farrier.simulated.terminate-delay", Duration.class).orElse(Duration.ofSeconds(2)), Clock.systemUTC(),
        properties.get("farrier.simulated.iam-roles", String.class).filter(s -> !s.isBlank())
            .map(s -> java.util.Set.of(s.split("\\s*,\\s*"))).orElse(null)));
    var kubeletKubeconfig = properties.get("farrier.simulated.kubelet-kubeconfig", String.class).filter(s -> !s.isBlank());
    var kubeletClient = kubeletKubeconfig.map(p -> ClientsFactory.client(Path.of(p), "farrier.simulated.kubelet-kubeconfig")).orElse(null);
    var kubelet = new SimulatedKubelet(kubeletClient == null ? kube : kubeletClient, cloud, SimulatedKubelet.DEFAULT_INTERVAL,
        properties.get("farrier.simulated.device-plugin-delay", Duration.class).orElse(SimulatedKubelet.DEFAULT_DEVICE_PLUGIN_DELAY));
    kubelet.start();
    return new OpenCloud(cloud, CloudSweep.NONE, () -> {
      kubelet.close();
      if (kubeletClient != null) {
        kubeletClient.close();
      }
    });
  }
}
