package dev.farrier.workflows.activities;

/**
 * One node the disruption planner decided to disrupt now.
 *
 * @param method  {@code replace} (launch a replacement first) or {@code delete} (no replacement needed, or the
 *                NodeClaim is being deleted by a user)
 * @param reason  Karpenter's reason word: {@code drifted}, {@code expired}, {@code deleted}
 * @param detail  why, in words (e.g. "image ami-0abc is not among ami-0def, ami-0123 resolved for amd64")
 */
public record DisruptionCommand(
    String nodeClaim,
    String nodeName,
    String nodePool,
    String instanceId,
    String method,
    String reason,
    String detail,
    int podCount,
    Long terminationGracePeriodSeconds) {}
