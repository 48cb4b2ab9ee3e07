package dev.farrier.workflows.activities;

import java.util.List;

/** Input of {@link RolloutActivities#release}: the NodePools, and the EC2NodeClass whose rollout annotations go too. */
public record ReleaseRolloutRequest(String cluster, String workflowId, List<String> nodePools, String nodeClass) {}
