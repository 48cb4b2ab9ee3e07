package dev.farrier.workflows.upgrade;

import java.util.List;

/**
 * How a fleet upgrade ended: {@code Succeeded} (every node of its NodePools on the target), {@code Failed} (stopped,
 * rolled back, {@code cause} says why) or {@code Aborted} (an operator stopped it; rolled back).
 */
public record UpgradeResult(
    String outcome,
    String cause,
    List<String> nodePools,
    String nodeClass,
    String target,
    List<String> targetImages,
    int batches,
    int replaced,
    int total,
    int failures,
    int rolledBack) {
  public static final String SUCCEEDED = "Succeeded";
  public static final String FAILED = "Failed";
  public static final String ABORTED = "Aborted";
}
