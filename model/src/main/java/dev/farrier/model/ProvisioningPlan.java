package dev.farrier.model;

import dev.farrier.model.ExistingPlacement;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.UnschedulablePod;
import java.util.List;

/**
 * The provisioning planner's decision for one batch: claims to create, pods no NodePool can take, and pods that fit
 * on existing nodes or in-flight claims ({@code onExisting}, empty in histories recorded before it existed).
 */
public record ProvisioningPlan(
    List<NodeClaimRequest> claims, List<UnschedulablePod> unschedulable, List<ExistingPlacement> onExisting) {
  public ProvisioningPlan {
    claims = List.copyOf(claims);
    unschedulable = List.copyOf(unschedulable);
    onExisting = onExisting == null ? List.of() : List.copyOf(onExisting);
  }

  public ProvisioningPlan(List<NodeClaimRequest> claims, List<UnschedulablePod> unschedulable) {
    this(claims, unschedulable, List.of());
  }
}
