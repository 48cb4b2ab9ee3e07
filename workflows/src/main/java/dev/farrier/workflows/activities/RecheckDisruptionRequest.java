package dev.farrier.workflows.activities;

import dev.farrier.model.DisruptionCommand;

/**
 * Input of {@link PlanningActivities#recheckDisruption}: whether the disruption of {@code nodeClaim} for
 * {@code reason}, planned moments ago, still stands; for a multi-node consolidation, weighed with the claims it was
 * planned with ({@link DisruptionCommand#consolidatedWith}).
 */
public record RecheckDisruptionRequest(String cluster, String nodeClaim, String reason, java.util.List<String> consolidatedWith) {
  public RecheckDisruptionRequest {
    consolidatedWith = consolidatedWith == null ? java.util.List.of() : java.util.List.copyOf(consolidatedWith);
  }

  public RecheckDisruptionRequest(String cluster, String nodeClaim, String reason) {
    this(cluster, nodeClaim, reason, java.util.List.of());
  }
}
