package dev.farrier.model;

/**
 * One node the disruption planner decided to disrupt now.
 *
 * @param method        replace (launch a replacement first) or delete (no replacement needed, or the NodeClaim is
 *                      being deleted by a user)
 * @param reason        Karpenter's reason word: {@code drifted}, {@code expired}, {@code deleted}, {@code empty},
 *                      {@code unhealthy} (node repair)
 * @param detail        why, in words (e.g. "image ami-0abc is not among ami-0def, ami-0123 resolved for amd64")
 * @param instanceType  the node's {@code node.kubernetes.io/instance-type}, for the disruption log line (may be null)
 * @param capacityType  the node's {@code karpenter.sh/capacity-type}, for the disruption log line (may be null)
 * @param maxPricePerHour for a consolidation that replaces a node with a cheaper one, the node's price: the
 *                      replacement may only use offerings cheaper than this; null otherwise
 * @param approvalRequired the NodePool asks for an operator's approval before the old node is drained
 *                      ({@code farrier.dev/approve-replacements: "true"})
 * @param consolidatedWith for a multi-node consolidation that replaces several nodes with one cheaper node, the other
 *                      NodeClaims (of the same NodePool) whose pods the replacement is sized for (and whose price counts
 *                      in {@code maxPricePerHour}); they are deleted by later rounds once their pods fit on it. Empty
 *                      otherwise.
 * @param forceful      Karpenter's forceful disruption (an expired node, unless its NodePool asks for
 *                      {@code farrier.dev/expiry: replace-first}, or a repaired one, whose grace period is 0): the node is cordoned and drained at once (PDBs and
 *                      do-not-disrupt pods respected until its terminationGracePeriod, counted from the start), its
 *                      replacement launched in parallel; a replacement that cannot be planned or launched does not stop
 *                      the drain, and no approval is waited for
 */
public record DisruptionCommand(
    String nodeClaim,
    String nodeName,
    String nodePool,
    String instanceId,
    DisruptionMethod method,
    String reason,
    String detail,
    int podCount,
    Long terminationGracePeriodSeconds,
    String instanceType,
    String capacityType,
    boolean approvalRequired,
    boolean forceful,
    Double maxPricePerHour,
    java.util.List<String> consolidatedWith) {
  public DisruptionCommand {
    consolidatedWith = consolidatedWith == null ? java.util.List.of() : java.util.List.copyOf(consolidatedWith);
  }

  /** A command that replaces or deletes one node alone. */
  public DisruptionCommand(String nodeClaim, String nodeName, String nodePool, String instanceId, DisruptionMethod method,
      String reason, String detail, int podCount, Long terminationGracePeriodSeconds, String instanceType, String capacityType,
      boolean approvalRequired, boolean forceful, Double maxPricePerHour) {
    this(nodeClaim, nodeName, nodePool, instanceId, method, reason, detail, podCount, terminationGracePeriodSeconds,
        instanceType, capacityType, approvalRequired, forceful, maxPricePerHour, java.util.List.of());
  }

  /** The reason of an empty node's consolidation. */
  public static final String REASON_EMPTY = "empty";
  /** A drifted node's replacement: what a rollout's replacements carry (its {@code FarrierReason}). */
  public static final String REASON_DRIFTED = "drifted";
  /** The reason of an underutilized node's consolidation (deleted, or replaced by a cheaper node). */
  public static final String REASON_UNDERUTILIZED = "underutilized";

  /** A consolidation: validated again after a moment before the node is touched, as Karpenter validates its commands. */
  public boolean consolidation() {
    return REASON_EMPTY.equals(reason) || REASON_UNDERUTILIZED.equals(reason);
  }

  /** Without a price ceiling for the replacement (every disruption but a consolidation's replace). */
  public DisruptionCommand(String nodeClaim, String nodeName, String nodePool, String instanceId, DisruptionMethod method,
      String reason, String detail, int podCount, Long terminationGracePeriodSeconds, String instanceType, String capacityType,
      boolean approvalRequired, boolean forceful) {
    this(nodeClaim, nodeName, nodePool, instanceId, method, reason, detail, podCount, terminationGracePeriodSeconds,
        instanceType, capacityType, approvalRequired, forceful, null);
  }

  /** A voluntary disruption (replaced first). */
  public DisruptionCommand(String nodeClaim, String nodeName, String nodePool, String instanceId, DisruptionMethod method,
      String reason, String detail, int podCount, Long terminationGracePeriodSeconds, String instanceType, String capacityType,
      boolean approvalRequired) {
    this(nodeClaim, nodeName, nodePool, instanceId, method, reason, detail, podCount, terminationGracePeriodSeconds,
        instanceType, capacityType, approvalRequired, false);
  }

  public DisruptionCommand(String nodeClaim, String nodeName, String nodePool, String instanceId, DisruptionMethod method,
      String reason, String detail, int podCount, Long terminationGracePeriodSeconds, String instanceType, String capacityType) {
    this(nodeClaim, nodeName, nodePool, instanceId, method, reason, detail, podCount, terminationGracePeriodSeconds,
        instanceType, capacityType, false);
  }

  /** Without the node's instance and capacity type (the log line then shows them empty, as Karpenter does). */
  public DisruptionCommand(String nodeClaim, String nodeName, String nodePool, String instanceId, DisruptionMethod method,
      String reason, String detail, int podCount, Long terminationGracePeriodSeconds) {
    this(nodeClaim, nodeName, nodePool, instanceId, method, reason, detail, podCount, terminationGracePeriodSeconds,
        null, null);
  }
}
