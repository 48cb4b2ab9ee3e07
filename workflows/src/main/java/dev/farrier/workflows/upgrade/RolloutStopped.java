package dev.farrier.workflows.upgrade;

/**
 * Thrown inside the workflow when the rollout must stop; caught by {@link NodePoolUpgradeWorkflowImpl#upgrade}, which
 * rolls back ({@link Rollback}): it never leaves the workflow.
 */
final class RolloutStopped extends RuntimeException {
  /** An operator's {@code Abort} stopped it (the result says Aborted, not Failed). */
  final boolean aborted;

  RolloutStopped(String cause, boolean aborted) {
    super(cause, null, false, false);
    this.aborted = aborted;
  }

  /** Why a rollout stops, as a value: what a rolling rollout keeps while its slots in flight finish. */
  record Why(String cause, boolean aborted) {
    RolloutStopped thrown() {
      return new RolloutStopped(cause, aborted);
    }
  }

  Why why() {
    return new Why(getMessage(), aborted);
  }
}
