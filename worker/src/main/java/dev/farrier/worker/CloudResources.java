package dev.farrier.worker;

import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.activities.cloud.simulated.SimulatedKubelet;
import dev.farrier.worker.config.WorkerSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * The configured cloud and what runs beside it: for {@code simulated}, the simulated kubelet that registers a Node
 * for every running instance (in a real cluster the instance's own kubelet does that).
 */
@Singleton
public class CloudResources implements AutoCloseable {
  private final CloudProvider provider;
  private final SimulatedKubelet kubelet;
  private final KubernetesClient kubeletClient;

  public CloudResources(WorkerSettings settings, KubernetesClient kube) {
    switch (settings.cloud()) {
      case "simulated" -> {
        var s = settings.simulated();
        var cloud = new SimulatedCloud(new SimulatedCloudConfig(settings.clusterName(), s.stateDir(), settings.region(), s.kubernetesVersion(),
            s.bootDelay(), s.terminateDelay(), Clock.systemUTC()));
        this.provider = cloud;
        this.kubeletClient = s.kubeletKubeconfig() == null ? null : ClientsFactory.client(s.kubeletKubeconfig(), "farrier.simulated.kubelet-kubeconfig");
        this.kubelet = new SimulatedKubelet(kubeletClient == null ? kube : kubeletClient, cloud);
        this.kubelet.start();
      }
      case "aws" -> throw new IllegalArgumentException(
          "farrier.cloud=aws is not available in this build yet (the EC2/SSM/SQS provider is the next piece of work); "
              + "use farrier.cloud=simulated with farrier.simulated.state-dir");
      default -> throw new IllegalArgumentException("unknown farrier.cloud " + settings.cloud());
    }
  }

  public CloudProvider provider() {
    return provider;
  }

  @Override
  public void close() {
    if (kubelet != null) {
      kubelet.close();
    }
    if (kubeletClient != null) {
      kubeletClient.close();
    }
  }
}
