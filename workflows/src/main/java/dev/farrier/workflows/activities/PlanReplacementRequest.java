package dev.farrier.workflows.activities;

/**
 * Input of {@link PlanningActivities#planReplacement}: size a replacement for the pods on {@code nodeName}.
 *
 * @param maxPricePerHour when not null (a consolidation replacing a node with a cheaper one), the replacement may only
 *                        use offerings cheaper than this
 */
public record PlanReplacementRequest(String cluster, String nodeClaim, String nodeName, String replacementName,
    Double maxPricePerHour) {
  public PlanReplacementRequest(String cluster, String nodeClaim, String nodeName, String replacementName) {
    this(cluster, nodeClaim, nodeName, replacementName, null);
  }
}
