package dev.farrier.workflows.activities;

/** Input of the waiting activities: the claim, and the node once known (null while waiting for registration). */
public record AwaitNodeRequest(String cluster, String nodeClaim, String providerId, String nodeName) {}
