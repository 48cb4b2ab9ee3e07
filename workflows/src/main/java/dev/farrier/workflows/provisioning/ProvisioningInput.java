package dev.farrier.workflows.provisioning;

import dev.farrier.model.LaunchSettings;
import dev.farrier.model.PodRef;
import java.util.List;

/**
 * A batch of pending pods to provision for, or ({@code staticPools}) the static NodePools' scale-up, which has no pods:
 * claims from their templates up to their {@code replicas}.
 */
public record ProvisioningInput(String cluster, String batchId, List<PodRef> pods, LaunchSettings launchSettings,
    boolean staticPools) {
  public ProvisioningInput {
    pods = List.copyOf(pods);
  }

  /** A batch of pending pods. */
  public ProvisioningInput(String cluster, String batchId, List<PodRef> pods, LaunchSettings launchSettings) {
    this(cluster, batchId, pods, launchSettings, false);
  }
}
