package dev.farrier.worker.config;

import dev.farrier.activities.cloud.aws.AwsConnection;
import dev.farrier.model.LaunchSettings;
import dev.farrier.model.ReconcilerSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Everything the worker reads from configuration (Micronaut: {@code application.yml}, system properties, and
 * environment variables such as {@code FARRIER_CLUSTER_NAME}), validated once at start.
 *
 * @param kubeconfig  null means in-cluster configuration (service account) or ~/.kube/config
 * @param cloud       {@code aws}, or a cloud found on the class path ({@code simulated}: the sandbox and tests; see
 *                    {@code CloudPlugin})
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
    AwsSettings aws,
    GcSettings gc,
    ReconcilerSettings reconciler,
    String interruptionQueue) {

  /**
   * How the worker reaches AWS and what its nodes join. {@code endpoint} (null = AWS itself) points the SDK at an
   * emulator such as moto; static credentials are for emulators and tests (null = the SDK's default chain: IRSA or
   * Pod Identity in a cluster). The cluster's API endpoint, CA bundle (base64) and service CIDR go into every node's
   * user data; {@code onDemandPricesFile} (null = the shipped table) is re-read at every catalogue refresh.
   */
  public record AwsSettings(URI endpoint, String accessKeyId, String secretAccessKey, String clusterEndpoint, String clusterCaBundle,
      String serviceCidr, String ssmParameterRoot, Path onDemandPricesFile, Duration catalogueRefresh) {}

  /**
   * Garbage collection: how often it runs, how long an instance or claim may be unmatched before it acts, how long an
   * instance must stay gone before its NodeClaim is removed, and the share of the fleet above which a pass deletes
   * nothing ({@code dev.farrier.activities.gc.GcPolicy}).
   */
  public record GcSettings(Duration interval, Duration grace, Duration confirmAfter, double maxGoneShare) {
    public GcSettings(Duration interval, Duration grace) {
      this(interval, grace, Duration.ofMinutes(2), 0.2);
    }
  }

  public WorkerSettings {
    require(clusterName, "farrier.cluster-name (FARRIER_CLUSTER_NAME)");
    require(temporalAddress, "farrier.temporal.address (FARRIER_TEMPORAL_ADDRESS)");
    require(cloud, "farrier.cloud (FARRIER_CLOUD)");
    if (cloud.equals("aws")) {
      String required = " is required with farrier.cloud=aws (it goes into every node's user data)";
      require(aws.clusterEndpoint(), "farrier.aws.cluster-endpoint (FARRIER_AWS_CLUSTER_ENDPOINT)", required);
      require(aws.clusterCaBundle(), "farrier.aws.cluster-ca-bundle (FARRIER_AWS_CLUSTER_CA_BUNDLE)", required);
      require(aws.serviceCidr(), "farrier.aws.service-cidr (FARRIER_AWS_SERVICE_CIDR)", required);
      if ((aws.accessKeyId() == null) != (aws.secretAccessKey() == null)) {
        throw new IllegalArgumentException("set both farrier.aws.access-key-id (FARRIER_AWS_ACCESS_KEY_ID) and farrier.aws.secret-access-key"
            + " (FARRIER_AWS_SECRET_ACCESS_KEY), or neither to use the default credential chain");
      }
    }
    if (gc.interval().isZero() || gc.interval().isNegative() || gc.grace().isNegative()) {
      throw new IllegalArgumentException("farrier.gc.interval must be positive and farrier.gc.grace not negative");
    }
    if (gc.confirmAfter().isNegative() || !(gc.maxGoneShare() >= 0 && gc.maxGoneShare() <= 1)) {
      throw new IllegalArgumentException("farrier.gc.confirm-after must not be negative and farrier.gc.max-gone-share must be"
          + " between 0 and 1, not " + gc.maxGoneShare());
    }
  }

  private static void require(String value, String name) {
    require(value, name, " is required");
  }

  private static void require(String value, String name, String why) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + why);
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
