package dev.farrier.workflows.activities;

/** Input of {@link PlanningActivities#planReplacement}: size a replacement for the pods on {@code nodeName}. */
public record PlanReplacementRequest(String cluster, String nodeClaim, String nodeName, String replacementName) {}
