package dev.farrier.workflows.replacement;

/**
 * Thrown inside the replacement when an accepted abort is noticed (at a checkpoint, or while a step waits); caught
 * by {@link NodeReplacementWorkflowImpl#replace}, which rolls back. It never leaves the workflow method.
 */
final class AbortRequested extends RuntimeException {
  AbortRequested() {
    super(null, null, false, false);
  }
}
