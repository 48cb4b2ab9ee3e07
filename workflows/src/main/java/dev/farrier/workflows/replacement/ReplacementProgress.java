package dev.farrier.workflows.replacement;

import java.util.List;

/**
 * The replacement's progress, as its query returns it.
 *
 * @param phase        Pending, Tainting, Launching, Cordoning, Draining, Terminating, Finalizing, Done, RollingBack,
 *                     Aborted, Failed
 * @param replacement  the replacement NodeClaim, once planned (null for method delete)
 * @param podsLeft     pods still to leave the node (namespace/name)
 * @param blockedBy    what blocks progress now, in words (e.g. "PodDisruptionBudget default/inflate-pdb"), or null
 * @param paused       whether an operator paused it
 */
public record ReplacementProgress(
    String nodeClaim,
    String nodeName,
    String phase,
    String replacement,
    List<String> podsLeft,
    List<String> evicted,
    String blockedBy,
    boolean paused) {}
