package dev.farrier.workflows.replacement;

import java.util.List;

/**
 * The replacement's progress, as its {@code progress} query returns it (and {@code farrier status -o json} prints it).
 *
 * @param phase        Pending, Tainting, Launching, AwaitingApproval, Cordoning, Draining, Terminating, Finalizing,
 *                     Done, RollingBack, AwaitingRetry, Aborted, Failed
 * @param replacement  the replacement NodeClaim, once planned (null for method delete)
 * @param podsLeft     pods still to leave the node (namespace/name)
 * @param blockedBy    what blocks progress now, in words (e.g. "PodDisruptionBudget default/inflate-pdb"), or null
 * @param paused       whether an operator paused it
 * @param reason       why the node is disrupted (drifted, expired, deleted, SpotInterruption, ...)
 * @param nodePool     the node's NodePool
 * @param blocker      what blocks progress now, in detail (the PDBs, the pods held, since when), or null
 * @param forceDrain   the operator's force-drain reason, or null
 * @param pastPointOfNoReturn whether the instance's termination has started (abort no longer possible)
 */
public record ReplacementProgress(
    String nodeClaim,
    String nodeName,
    String phase,
    String replacement,
    List<String> podsLeft,
    List<String> evicted,
    String blockedBy,
    boolean paused,
    String reason,
    String nodePool,
    Blocker blocker,
    String forceDrain,
    boolean pastPointOfNoReturn) {}
