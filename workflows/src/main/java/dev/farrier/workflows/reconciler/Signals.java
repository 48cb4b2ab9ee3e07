package dev.farrier.workflows.reconciler;

import static dev.farrier.workflows.reconciler.ReconcilerRun.LOG;

import dev.farrier.model.ReconcilerSettings;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.provisioning.LaunchesClosed;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;

/**
 * What the reconciler is told: pending pods (the worker's informer), batches and launches closed (the provisioning
 * children), replacements closed, new settings (a worker's configuration). Each only changes the
 * {@link ReconcilerRun}; the loop acts on it at its next turn.
 */
final class Signals {
  private final ReconcilerRun reconciler;
  /**
   * Batcher signals handled before the workflow method took over the carried state, in order; null once it has. Pods
   * and closed batches signalled in the run's first workflow task (the SDK runs those handlers before the workflow
   * method; signal-with-start always does) must not be applied first: a pod of a carried batch would be queued again (a
   * second NodeClaim for it) and a carried batch that had closed would be held until its release time.
   */
  private List<Runnable> beforeRun = new ArrayList<>();

  Signals(ReconcilerRun reconciler) {
    this.reconciler = reconciler;
  }

  void podsPending(PendingPods pods) {
    toBatcher(() -> reconciler.batcher.offer(pods.pods(), Workflow.currentTimeMillis()));
  }

  void batchClosed(String batchId) {
    if (batchId != null) {
      toBatcher(() -> reconciler.batcher.completed(batchId, Workflow.currentTimeMillis()));
    }
  }

  void launchesClosed(LaunchesClosed closed) {
    if (closed != null && closed.batchId() != null) {
      toBatcher(() -> reconciler.batcher.released(closed.batchId(), closed.pods(), Workflow.currentTimeMillis()));
    }
  }

  void replacementClosed(String nodeClaim) {
    if (nodeClaim != null && !reconciler.followed.contains(WorkflowIds.disruption(nodeClaim))) {
      reconciler.replacementsClosed++;
    }
  }

  void updateSettings(ReconcilerSettings newSettings) {
    if (newSettings != null && !newSettings.equals(reconciler.settings)) {
      StructuredLog.info(LOG, "settings updated", "settings", newSettings);
      reconciler.settings = newSettings;
    }
  }

  /** Once the workflow method has taken over the carried state: applies the batcher signals held until then. */
  void applyHeld() {
    if (beforeRun != null) {
      List<Runnable> held = beforeRun;
      beforeRun = null;
      held.forEach(Runnable::run);
    }
  }

  private void toBatcher(Runnable signal) {
    if (beforeRun != null) {
      beforeRun.add(signal);
    } else {
      signal.run();
    }
  }
}
