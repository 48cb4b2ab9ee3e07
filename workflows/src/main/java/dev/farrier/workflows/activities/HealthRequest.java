package dev.farrier.workflows.activities;

import java.util.List;

/** Input of {@link RolloutActivities#observeHealth}: a batch's new nodes and the workloads its drains moved. */
public record HealthRequest(String cluster, List<String> nodes, List<WorkloadRef> workloads) {}
