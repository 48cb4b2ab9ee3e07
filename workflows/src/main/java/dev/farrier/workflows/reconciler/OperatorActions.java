package dev.farrier.workflows.reconciler;

import static dev.farrier.workflows.Refusals.refuseIf;
import static dev.farrier.workflows.reconciler.ReconcilerRun.LOG;

import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.Freeze;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import io.temporal.workflow.Workflow;
import java.util.stream.Collectors;

/**
 * What an operator does to the reconciler ({@code farrier freeze|unfreeze|plan|status}): each Update's validator
 * refuses, with a message, what makes no sense now (a refused Update leaves no trace in the history). A freeze only
 * changes the {@link ReconcilerRun}: the next disruption round plans under it.
 */
final class OperatorActions {
  private final ReconcilerRun reconciler;

  OperatorActions(ReconcilerRun reconciler) {
    this.reconciler = reconciler;
  }

  void validatePreviewPlan() {
    refuseIf(reconciler.cluster == null || reconciler.settings == null,
        "the reconciler has not started its run yet; ask again in a moment");
  }

  DisruptionPlan previewPlan() {
    return reconciler.planning.planDisruption(reconciler.planRequest(PlanDisruptionRequest.Purpose.PREVIEW));
  }

  ReconcilerStatus status() {
    return reconciler.status();
  }

  void validateFreeze(FreezeRequest request) {
    refuseIf(request == null || request.reason() == null || request.reason().isBlank(),
        "a freeze needs a reason (everyone who sees it reads it)");
    Freeze standing = reconciler.freezes.get(Freeze.key(request.nodePool()));
    refuseIf(standing != null, "already " + (standing == null ? "" : standing.describe()));
  }

  String freeze(FreezeRequest request) {
    var freeze = new Freeze(request.nodePool(), request.reason().strip(), request.by(), Workflow.currentTimeMillis());
    reconciler.freezes.put(Freeze.key(freeze.nodePool()), freeze);
    StructuredLog.warn(LOG, "change freeze", "scope", freeze.scope(), "reason", freeze.reason(), "by", freeze.by());
    upsertFreezes();
    return freeze.describe() + ": no voluntary disruption or upgrade batch starts until unfrozen";
  }

  void validateUnfreeze(FreezeRequest request) {
    String nodePool = request == null ? null : request.nodePool();
    var freezes = reconciler.freezes;
    refuseIf(!freezes.containsKey(Freeze.key(nodePool)), "not frozen " + Freeze.scope(nodePool)
        + (freezes.isEmpty() ? "" : "; in force: " + freezes.values().stream().map(Freeze::describe).toList()));
  }

  String unfreeze(FreezeRequest request) {
    Freeze lifted = reconciler.freezes.remove(Freeze.key(request.nodePool()));
    StructuredLog.info(LOG, "change freeze lifted", "scope", lifted.scope(), "by", request.by());
    upsertFreezes();
    return "unfrozen " + lifted.scope() + " (was " + lifted.describe() + ")";
  }

  /** The reconciler's FarrierBlocker names the freezes in force, so the Temporal UI shows them. */
  private void upsertFreezes() {
    var freezes = reconciler.freezes;
    Workflow.upsertTypedSearchAttributes(freezes.isEmpty() ? FarrierSearchAttributes.BLOCKER.valueUnset()
        : FarrierSearchAttributes.BLOCKER.valueSet(FarrierSearchAttributes.keyword(freezes.values().stream()
            .map(Freeze::describe).collect(Collectors.joining("; ")))));
  }
}
