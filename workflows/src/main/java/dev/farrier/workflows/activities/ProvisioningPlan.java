package dev.farrier.workflows.activities;

import dev.farrier.workflows.model.NodeClaimRequest;
import dev.farrier.workflows.model.UnschedulablePod;
import java.util.List;

/** The provisioning planner's decision for one batch: claims to create and pods no NodePool can take. */
public record ProvisioningPlan(List<NodeClaimRequest> claims, List<UnschedulablePod> unschedulable) {
  public ProvisioningPlan {
    claims = List.copyOf(claims);
    unschedulable = List.copyOf(unschedulable);
  }
}
