package dev.farrier.workflows.activities;

import dev.farrier.model.DisruptionCommand;

/**
 * Input of {@link PlanningActivities#planReplacement}: size a replacement for the pods on {@code nodeName}.
 *
 * @param maxPricePerHour when not null (a consolidation replacing a node with a cheaper one), the replacement may only
 *                        use offerings cheaper than this
 * @param consolidatedWith the other NodeClaims of a multi-node consolidation: their nodes' pods are planned onto the
 *                        replacement too ({@link DisruptionCommand#consolidatedWith})
 */
public record PlanReplacementRequest(String cluster, String nodeClaim, String nodeName, String replacementName,
    Double maxPricePerHour, java.util.List<String> consolidatedWith) {
  public PlanReplacementRequest {
    consolidatedWith = consolidatedWith == null ? java.util.List.of() : java.util.List.copyOf(consolidatedWith);
  }

  public PlanReplacementRequest(String cluster, String nodeClaim, String nodeName, String replacementName, Double maxPricePerHour) {
    this(cluster, nodeClaim, nodeName, replacementName, maxPricePerHour, java.util.List.of());
  }

  public PlanReplacementRequest(String cluster, String nodeClaim, String nodeName, String replacementName) {
    this(cluster, nodeClaim, nodeName, replacementName, null);
  }
}
