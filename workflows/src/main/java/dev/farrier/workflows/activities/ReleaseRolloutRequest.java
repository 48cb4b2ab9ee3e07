package dev.farrier.workflows.activities;

import java.util.List;

/** Input of {@link RolloutActivities#release}. */
public record ReleaseRolloutRequest(String cluster, String workflowId, List<String> nodePools) {}
