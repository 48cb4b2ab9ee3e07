package dev.farrier.workflows.activities;

/**
 * One pod of a {@link SurgePass}: a pod a PodDisruptionBudget keeps on a draining node, opted in to a surge.
 *
 * @param nodePool  the node's NodePool, whose {@code farrier.dev/surge} annotation may opt the pod in
 * @param pod       namespace/name of the held pod
 * @param previous  what the last call answered for this pod in this replacement, or null: an Event is recorded only
 *                  when the answer changes, so a drain blocked for hours does not repeat it every pass
 */
public record SurgeRequest(String cluster, String nodeName, String nodeClaim, String nodePool, String pod,
    SurgeOutcome previous) {}
