package dev.farrier.workflows.activities;

import java.util.List;

/** Input of {@link RolloutActivities#frozen}: is the cluster, or one of these NodePools, under a change freeze? */
public record FrozenRequest(String cluster, List<String> nodePools) {}
