package dev.farrier.activities.cloud.simulated;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * How a {@link SimulatedCloud} behaves.
 *
 * @param cluster                  the cluster whose VPC this is: its subnets and security group carry
 *                                 {@code karpenter.sh/discovery=<cluster>} ({@link SimulatedNetwork})
 * @param stateDir                 where the instances ({@code state.json}) and the call log ({@code calls.jsonl})
 *                                 live; every SimulatedCloud on the same directory, in any process, sees the same cloud
 * @param region                   the EC2 region of the catalogue (only {@code us-east-1} has prices)
 * @param clusterKubernetesVersion the minor version AMI aliases resolve for, e.g. {@code 1.34}
 * @param bootDelay                pending -> running after launch
 * @param terminateDelay           shutting-down -> terminated after terminate
 * @param clock                    the time instance states are derived from (a fixed or offset clock in tests)
 * @param iamRoles                 the IAM roles the account has from the start (more are made by
 *                                 {@link SimulatedCloud#createRole}); null means the one the getting-started stack
 *                                 and the sandbox's manifests name, {@code KarpenterNodeRole-<cluster>}
 */
public record SimulatedCloudConfig(
    String cluster,
    Path stateDir, String region, String clusterKubernetesVersion, Duration bootDelay, Duration terminateDelay, Clock clock,
    Set<String> iamRoles) {
  public static final String DEFAULT_CLUSTER = "sandbox";
  public static final String DEFAULT_KUBERNETES_VERSION = "1.34";
  public static final Duration DEFAULT_BOOT_DELAY = Duration.ofSeconds(2);
  public static final Duration DEFAULT_TERMINATE_DELAY = Duration.ofSeconds(2);

  public SimulatedCloudConfig {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(stateDir, "stateDir");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(clusterKubernetesVersion, "clusterKubernetesVersion");
    Objects.requireNonNull(clock, "clock");
    if (bootDelay == null || bootDelay.isNegative() || terminateDelay == null || terminateDelay.isNegative()) {
      throw new IllegalArgumentException("bootDelay and terminateDelay must be zero or positive");
    }
    iamRoles = iamRoles == null ? null : Set.copyOf(iamRoles);
  }

  /** With the default IAM roles. */
  public SimulatedCloudConfig(String cluster, Path stateDir, String region, String clusterKubernetesVersion, Duration bootDelay,
      Duration terminateDelay, Clock clock) {
    this(cluster, stateDir, region, clusterKubernetesVersion, bootDelay, terminateDelay, clock, null);
  }

  /** The role the getting-started stack makes for Karpenter's nodes, which every sandbox manifest names. */
  public static String defaultNodeRole(String cluster) {
    return "KarpenterNodeRole-" + cluster;
  }

  /** The roles the account starts with: {@code iamRoles}, or the cluster's default node role. */
  public Set<String> initialRoles() {
    return iamRoles != null ? iamRoles : Set.of(defaultNodeRole(cluster));
  }

  public SimulatedCloudConfig withIamRoles(Set<String> roles) {
    return new SimulatedCloudConfig(cluster, stateDir, region, clusterKubernetesVersion, bootDelay, terminateDelay, clock, roles);
  }

  /** Cluster {@code sandbox}, us-east-1, Kubernetes 1.34, 2 s boot and terminate delays, the system clock. */
  public static SimulatedCloudConfig defaults(Path stateDir) {
    return new SimulatedCloudConfig(DEFAULT_CLUSTER, stateDir, "us-east-1", DEFAULT_KUBERNETES_VERSION, DEFAULT_BOOT_DELAY,
        DEFAULT_TERMINATE_DELAY, Clock.systemUTC());
  }

  public SimulatedCloudConfig withClock(Clock newClock) {
    return new SimulatedCloudConfig(cluster, stateDir, region, clusterKubernetesVersion, bootDelay, terminateDelay, newClock, iamRoles);
  }

  public SimulatedCloudConfig withDelays(Duration newBootDelay, Duration newTerminateDelay) {
    return new SimulatedCloudConfig(cluster, stateDir, region, clusterKubernetesVersion, newBootDelay, newTerminateDelay, clock, iamRoles);
  }

  public SimulatedCloudConfig withClusterKubernetesVersion(String version) {
    return new SimulatedCloudConfig(cluster, stateDir, region, version, bootDelay, terminateDelay, clock, iamRoles);
  }

  public SimulatedCloudConfig withCluster(String newCluster) {
    return new SimulatedCloudConfig(newCluster, stateDir, region, clusterKubernetesVersion, bootDelay, terminateDelay, clock, iamRoles);
  }
}
