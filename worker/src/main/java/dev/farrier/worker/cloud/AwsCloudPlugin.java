package dev.farrier.worker.cloud;

import dev.farrier.activities.cloud.aws.AwsClients;
import dev.farrier.activities.cloud.aws.AwsCloudProvider;
import dev.farrier.activities.cloud.aws.AwsProviderSettings;
import dev.farrier.worker.config.WorkerSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micronaut.core.value.PropertyResolver;
import java.time.Clock;

/** EC2 and SSM through the AWS SDK; the SDK clients close with the worker. */
public final class AwsCloudPlugin implements CloudPlugin {
  @Override
  public String name() {
    return "aws";
  }

  @Override
  public OpenCloud open(WorkerSettings settings, KubernetesClient kube, PropertyResolver properties) {
    var a = settings.aws();
    var clients = new AwsClients(settings.awsConnection());
    var aws = new AwsCloudProvider(clients, new AwsProviderSettings(settings.clusterName(), settings.region(), a.clusterEndpoint(),
        a.clusterCaBundle(), a.serviceCidr(), a.ssmParameterRoot(), a.onDemandPricesFile(), a.catalogueRefresh()),
        () -> kubernetesMinorVersion(kube), Clock.systemUTC());
    // Launch templates younger than the GC grace may belong to a launch in flight.
    return new OpenCloud(aws, cluster -> aws.deleteUnusedLaunchTemplates(cluster, settings.gc().grace()), clients);
  }

  /** {@code 1.34} from the API server's version (EKS reports minor versions such as {@code 34+}). */
  static String kubernetesMinorVersion(KubernetesClient kube) {
    var version = kube.getKubernetesVersion();
    return version.getMajor().replaceAll("\\D", "") + "." + version.getMinor().replaceAll("\\D", "");
  }
}
