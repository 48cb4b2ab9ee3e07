package dev.farrier.workflows.activities;

/** Input of {@link NodeClaimActivities#terminateInstance}. */
public record TerminateInstanceRequest(String cluster, String nodeClaim, String instanceId) {}
