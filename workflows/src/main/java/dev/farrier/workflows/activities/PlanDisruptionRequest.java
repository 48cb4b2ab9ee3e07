package dev.farrier.workflows.activities;

/** Input of {@link PlanningActivities#planDisruption}. */
public record PlanDisruptionRequest(String cluster) {}
