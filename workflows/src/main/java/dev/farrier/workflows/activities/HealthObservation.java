package dev.farrier.workflows.activities;

import dev.farrier.model.WorkloadRef;
import java.util.List;

/**
 * The new nodes and the moved workloads' pods as they are now, for the gate's decision.
 *
 * @param nodes one entry per node asked about
 * @param pods  every pod of the workloads asked about (not finished ones)
 */
public record HealthObservation(List<NodeHealth> nodes, List<PodHealth> pods) {
  public HealthObservation {
    nodes = nodes == null ? List.of() : List.copyOf(nodes);
    pods = pods == null ? List.of() : List.copyOf(pods);
  }

  /** {@code found} false when the Node does not exist; {@code ready} its Ready condition is True. */
  public record NodeHealth(String name, boolean found, boolean ready) {}

  /**
   * @param key           {@code namespace/name}
   * @param workload      its controller
   * @param node          where it runs, null while pending
   * @param ready         its Ready condition is True
   * @param restarts      the sum of its containers' restart counts
   * @param waitingReason a container's waiting reason ({@code CrashLoopBackOff}, ...), null when none waits
   */
  public record PodHealth(String key, WorkloadRef workload, String node, boolean ready, int restarts, String waitingReason) {}
}
