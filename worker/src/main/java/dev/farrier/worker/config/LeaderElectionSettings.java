package dev.farrier.worker.config;

import java.time.Duration;

/**
 * The Kubernetes Lease that picks the one replica running the loops outside workflows (pending pods, status refresh,
 * garbage collection). Disabled, every worker runs them: only for a single worker outside a cluster.
 *
 * @param namespace null = the pod's namespace ({@code POD_NAMESPACE}), else the client's (service account or kubeconfig)
 * @param identity  null = {@code POD_NAME}, else the host name with a random suffix (two workers on one host differ)
 */
public record LeaderElectionSettings(boolean enabled, String namespace, String name, String identity, Duration leaseDuration,
    Duration renewDeadline, Duration retryPeriod) {
  public LeaderElectionSettings {
    if (enabled && !(retryPeriod.isPositive() && retryPeriod.compareTo(renewDeadline) < 0 && renewDeadline.compareTo(leaseDuration) < 0)) {
      throw new IllegalArgumentException("farrier.leader-election needs 0 < retry-period < renew-deadline < lease-duration, not "
          + retryPeriod + " / " + renewDeadline + " / " + leaseDuration);
    }
    if (enabled && (name == null || name.isBlank())) {
      throw new IllegalArgumentException("farrier.leader-election.name (FARRIER_LEADER_ELECTION_NAME) is required");
    }
  }
}
