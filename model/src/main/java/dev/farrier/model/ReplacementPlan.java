package dev.farrier.model;

import dev.farrier.model.NodeClaimRequest;

/**
 * The replacement for a disrupted node. {@code replacement} is null when the node's pods need no new capacity
 * (only DaemonSet or mirror pods), in which case the node is simply drained and deleted.
 */
public record ReplacementPlan(NodeClaimRequest replacement, int reschedulablePods, String description) {}
