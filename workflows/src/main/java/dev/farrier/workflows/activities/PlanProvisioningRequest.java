package dev.farrier.workflows.activities;

import dev.farrier.workflows.model.PodRef;
import java.util.List;

/**
 * Input of {@link PlanningActivities#planProvisioning}. Claim names are derived from {@code batchId} so a retried
 * planning call names the same claims.
 */
public record PlanProvisioningRequest(String cluster, String batchId, List<PodRef> pods) {
  public PlanProvisioningRequest {
    pods = List.copyOf(pods);
  }
}
