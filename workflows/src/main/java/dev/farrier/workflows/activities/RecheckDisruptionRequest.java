package dev.farrier.workflows.activities;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import java.util.List;

/**
 * Input of {@link PlanningActivities#recheckDisruption}: whether the disruption of {@code nodeClaim} for
 * {@code reason} by {@code method} (null: any), planned moments ago, still stands; for a multi-node consolidation,
 * weighed with the claims it was planned with ({@link DisruptionCommand#consolidatedWith}).
 */
public record RecheckDisruptionRequest(String cluster, String nodeClaim, String reason, List<String> consolidatedWith,
    DisruptionMethod method) {
  public RecheckDisruptionRequest {
    consolidatedWith = consolidatedWith == null ? List.of() : List.copyOf(consolidatedWith);
  }

  public RecheckDisruptionRequest(String cluster, String nodeClaim, String reason) {
    this(cluster, nodeClaim, reason, List.of(), null);
  }
}
