package dev.farrier.workflows.provisioning;

import dev.farrier.model.LaunchSettings;
import dev.farrier.model.NodeClaimRequest;

/** Input of {@link NodeLaunchWorkflow}. */
public record NodeLaunchInput(String cluster, NodeClaimRequest claim, LaunchSettings settings) {}
