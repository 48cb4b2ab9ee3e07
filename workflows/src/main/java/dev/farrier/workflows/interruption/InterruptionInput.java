package dev.farrier.workflows.interruption;

import dev.farrier.model.ReconcilerSettings;

/**
 * Input of {@link InterruptionWorkflow}, also what it carries across continue-as-new.
 *
 * @param queue    the SQS queue URL or name
 * @param settings launch and drain settings for the replacements it starts (the reconciler's, from the worker)
 * @param counts   what earlier runs handled, so the status query counts over the workflow's whole life
 * @param maxPollsPerRun polls before continuing as new; 0 = {@link InterruptionWorkflowImpl#MAX_POLLS_PER_RUN}
 */
public record InterruptionInput(String cluster, String queue, ReconcilerSettings settings, InterruptionCounts counts,
    int maxPollsPerRun) {
  public InterruptionInput {
    counts = counts == null ? InterruptionCounts.ZERO : counts;
  }

  /** A fresh poller with the default run length. */
  public InterruptionInput(String cluster, String queue, ReconcilerSettings settings) {
    this(cluster, queue, settings, InterruptionCounts.ZERO, 0);
  }
}
