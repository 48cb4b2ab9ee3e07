package dev.farrier.workflows.provisioning;

import dev.farrier.workflows.model.NodeClaimRequest;

/** Input of {@link NodeLaunchWorkflow}. */
public record NodeLaunchInput(String cluster, NodeClaimRequest claim, LaunchSettings settings) {}
