package dev.farrier.workflows.activities;

import dev.farrier.model.WorkloadRef;
import java.util.List;

/**
 * Input of {@link RolloutActivities#observeHealth}: a batch's new nodes and the workloads its drains moved.
 *
 * @param troubledElsewhereOnly the workloads' pods on {@code nodes} only, and elsewhere only those that have restarted
 *                              or have a container waiting: what one replacement's gate among others reads
 *                              ({@code --rolling}). Without it, every pod of the workloads (a Deployment across a
 *                              500-node fleet made each answer about 110 KB of the rollout's history).
 */
public record HealthRequest(String cluster, List<String> nodes, List<WorkloadRef> workloads, boolean troubledElsewhereOnly) {
  public HealthRequest(String cluster, List<String> nodes, List<WorkloadRef> workloads) {
    this(cluster, nodes, workloads, false);
  }
}
