package dev.farrier.worker;

import dev.farrier.activities.cloud.CloudProvider;
import dev.farrier.activities.cloud.aws.AwsClients;
import dev.farrier.activities.cloud.aws.AwsCloudProvider;
import dev.farrier.activities.cloud.aws.AwsProviderSettings;
import dev.farrier.activities.gc.CloudSweep;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.activities.cloud.simulated.SimulatedKubelet;
import dev.farrier.worker.config.WorkerSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * The configured cloud and what runs beside it: for {@code aws}, the SDK clients (closed with the worker); for
 * {@code simulated}, the simulated kubelet that registers a Node for every running instance (in a real cluster the
 * instance's own kubelet does that).
 */
@Singleton
public class CloudResources implements AutoCloseable {
  private final CloudProvider provider;
  private final SimulatedKubelet kubelet;
  private final KubernetesClient kubeletClient;
  private final AwsClients clients;
  private final CloudSweep sweep;

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
        this.clients = null;
        this.sweep = CloudSweep.NONE;
      }
      case "aws" -> {
        var a = settings.aws();
        this.clients = new AwsClients(settings.awsConnection());
        var aws = new AwsCloudProvider(clients, new AwsProviderSettings(settings.clusterName(), settings.region(), a.clusterEndpoint(),
            a.clusterCaBundle(), a.serviceCidr(), a.ssmParameterRoot(), a.onDemandPricesFile(), a.catalogueRefresh()),
            () -> kubernetesMinorVersion(kube), Clock.systemUTC());
        this.provider = aws;
        // Launch templates younger than the GC grace may belong to a launch in flight.
        this.sweep = cluster -> aws.deleteUnusedLaunchTemplates(cluster, settings.gc().grace());
        this.kubelet = null;
        this.kubeletClient = null;
      }
      default -> throw new IllegalArgumentException("unknown farrier.cloud " + settings.cloud());
    }
  }

  /** {@code 1.34} from the API server's version (EKS reports minor versions such as {@code 34+}). */
  static String kubernetesMinorVersion(KubernetesClient kube) {
    var version = kube.getKubernetesVersion();
    return version.getMajor().replaceAll("\\D", "") + "." + version.getMinor().replaceAll("\\D", "");
  }

  public CloudProvider provider() {
    return provider;
  }

  /** The cloud's own garbage (unused launch templates on AWS), for the garbage collector. */
  public CloudSweep sweep() {
    return sweep;
  }

  @Override
  public void close() {
    if (kubelet != null) {
      kubelet.close();
    }
    if (kubeletClient != null) {
      kubeletClient.close();
    }
    if (clients != null) {
      clients.close();
    }
  }
}
