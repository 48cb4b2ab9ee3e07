package dev.farrier.workflows.activities;

/**
 * Input of {@link PlanningActivities#recheckDisruption}: whether the disruption of {@code nodeClaim} for
 * {@code reason}, planned moments ago, still stands.
 */
public record RecheckDisruptionRequest(String cluster, String nodeClaim, String reason) {}
