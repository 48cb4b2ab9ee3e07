package dev.farrier.workflows;

import io.temporal.workflow.Workflow;
import org.slf4j.Logger;

/**
 * What the reconciler's children tell it as they go: a provisioning batch's closed launches, a replacement's close.
 * Best effort: a child started without a reconciler (by hand, or one gone since) has nobody to tell, and the
 * reconciler's own next round sees the same change later.
 */
public final class ReconcilerSignals {
  private static final Logger log = Workflow.getLogger(ReconcilerSignals.class);

  private ReconcilerSignals() {}

  /**
   * Signals {@code reconciler/<cluster>}; false when it could not be told, logged with what the signal is about
   * ({@code aboutKey}, {@code about}: the batch or the NodeClaim).
   */
  public static boolean tell(String cluster, String signal, Object payload, String aboutKey, String about) {
    try {
      Workflow.newUntypedExternalWorkflowStub(WorkflowIds.reconciler(cluster)).signal(signal, payload);
      return true;
    } catch (RuntimeException e) {
      StructuredLog.info(log, "reconciler not told", "signal", signal, aboutKey, about, "error", Failures.reason(e));
      return false;
    }
  }
}
