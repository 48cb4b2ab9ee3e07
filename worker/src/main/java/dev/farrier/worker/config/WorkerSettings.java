package dev.farrier.worker.config;

import dev.farrier.activities.cloud.aws.AwsConnection;
import dev.farrier.workflows.provisioning.LaunchSettings;
import dev.farrier.workflows.reconciler.ReconcilerSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Everything the worker reads from configuration (Micronaut: {@code application.yml}, system properties, and
 * environment variables such as {@code FARRIER_CLUSTER_NAME}), validated once at start.
 *
 * @param kubeconfig  null means in-cluster configuration (service account) or ~/.kube/config
 * @param cloud       {@code simulated} (sandbox and tests) or {@code aws}
 * @param aws         how to reach AWS (or an emulator): used by the {@code aws} cloud and the interruption queue
 * @param interruptionQueue the SQS queue URL or name of the EventBridge interruption rules; null = handling off
 */
public record WorkerSettings(
    String clusterName,
    String temporalAddress,
    String temporalNamespace,
    String taskQueue,
    Path kubeconfig,
    String cloud,
    String region,
    SimulatedSettings simulated,
    ReconcilerSettings reconciler,
    AwsSettings aws,
    String interruptionQueue) {

  /**
   * The simulated cloud's knobs: where its state lives (shared with the sandbox), boot and terminate delays, and
   * the identity its kubelet registers Nodes with ({@code kubeletKubeconfig}; null = the worker's own). A real
   * kubelet is not Farrier, so the sandbox gives it its own credentials and the worker keeps exactly its RBAC.
   */
  public record SimulatedSettings(Path stateDir, String kubernetesVersion, Duration bootDelay, Duration terminateDelay, Path kubeletKubeconfig) {}

  /**
   * The AWS endpoint override (moto or another emulator; null = AWS itself) and static credentials (null = the SDK's
   * default chain: IRSA or Pod Identity in a cluster).
   */
  public record AwsSettings(URI endpoint, String accessKeyId, String secretAccessKey) {}

  public WorkerSettings {
    require(clusterName, "farrier.cluster-name (FARRIER_CLUSTER_NAME)");
    require(temporalAddress, "farrier.temporal.address (FARRIER_TEMPORAL_ADDRESS)");
    if (!cloud.equals("simulated") && !cloud.equals("aws")) {
      throw new IllegalArgumentException("farrier.cloud (FARRIER_CLOUD) must be 'simulated' or 'aws', not '" + cloud + "'");
    }
    if (cloud.equals("simulated") && (simulated == null || simulated.stateDir() == null)) {
      throw new IllegalArgumentException("farrier.simulated.state-dir (FARRIER_SIMULATED_STATE_DIR) is required with farrier.cloud=simulated");
    }
  }

  private static void require(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " is required");
    }
  }

  /** The connection for every AWS client of this worker, in {@link #region()}. */
  public AwsConnection awsConnection() {
    return aws == null ? AwsConnection.of(region)
        : new AwsConnection(region, aws.endpoint(), aws.accessKeyId(), aws.secretAccessKey());
  }

  public boolean interruptionEnabled() {
    return interruptionQueue != null && !interruptionQueue.isBlank();
  }

  public LaunchSettings launch() {
    return reconciler.launchSettings();
  }
}
