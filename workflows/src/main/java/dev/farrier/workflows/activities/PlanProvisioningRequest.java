package dev.farrier.workflows.activities;

import dev.farrier.model.PodRef;
import java.util.List;

/**
 * Input of {@link PlanningActivities#planProvisioning}. Claim names are derived from {@code batchId} so a retried
 * planning call names the same claims; the provisioning workflow makes it unique per batch execution (workflow id
 * and run id), so no later batch can name an existing claim.
 *
 * @param staticPools plan the static NodePools' scale-up ({@code spec.replicas}) instead of pods (which are then none)
 */
public record PlanProvisioningRequest(String cluster, String batchId, List<PodRef> pods, boolean staticPools) {
  public PlanProvisioningRequest {
    pods = List.copyOf(pods);
  }

  /** A batch of pending pods. */
  public PlanProvisioningRequest(String cluster, String batchId, List<PodRef> pods) {
    this(cluster, batchId, pods, false);
  }
}
