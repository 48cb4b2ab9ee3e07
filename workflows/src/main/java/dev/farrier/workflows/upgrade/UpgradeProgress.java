package dev.farrier.workflows.upgrade;

import java.util.List;

/**
 * The {@code progress} query's answer: what {@code farrier upgrade --wait} prints and the Temporal UI shows.
 *
 * @param phase     {@link UpgradePhase#label()}
 * @param batch     the batch running or last run (1 is the canary; with {@code --rolling}, each refill counts as one)
 * @param remaining drifted nodes not replaced yet, as last planned
 * @param current   the NodeClaims of the batch in flight (with {@code --rolling}, of the slots)
 * @param blocker   what holds the rollout now, null when nothing
 * @param cause     why it stopped, once Failed or Aborted
 */
public record UpgradeProgress(
    String phase,
    String target,
    List<String> nodePools,
    String nodeClass,
    int batch,
    int total,
    int replaced,
    int remaining,
    int failures,
    List<String> current,
    String blocker,
    Long blockedSinceMillis,
    String cause,
    String requestedBy) {}
