package dev.farrier.workflows.activities;

import java.util.List;

/** Input of {@link RolloutActivities#workloadsOn}. */
public record WorkloadsRequest(String cluster, List<String> nodes) {}
