package dev.farrier.workflows.activities;

import java.util.List;

/**
 * Input of {@link NodeActivities#surge}: every pod one drain pass named surgeable ({@link DrainStatus#surgeable()}), so
 * a pass costs one activity call however many pods it holds.
 *
 * @param pods  one request per pod, in the pass's order
 */
public record SurgePass(List<SurgeRequest> pods) {
  public SurgePass {
    pods = pods == null ? List.of() : List.copyOf(pods);
  }
}
