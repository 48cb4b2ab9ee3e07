package dev.farrier.workflows.reconciler;

import dev.farrier.model.Freeze;
import dev.farrier.model.DisruptionPlan;
import java.util.List;

/**
 * The reconciler's query answer: the last disruption plan (its commands and the decisions to disrupt; the reason for
 * every other NodeClaim comes from {@link ClusterReconcilerWorkflow#previewPlan}), the
 * provisioning batches in flight, the replacements it started, the pods waiting for the next batch, and the
 * NodeClaims whose failed replacement is cooling down, and the change freezes in force.
 */
public record ReconcilerStatus(
    DisruptionPlan lastPlan,
    List<String> provisioningInFlight,
    List<String> replacementsStarted,
    int pendingPods,
    long nextBatch,
    List<Cooldown> cooldowns,
    List<Freeze> freezes) {}
