package dev.farrier.workflows.reconciler;

import dev.farrier.workflows.provisioning.LaunchSettings;

/**
 * Timing of the reconciler, from the worker's configuration. Defaults: a batch closes after 1 s without a new
 * pending pod or 10 s after it opened; the disruption planner runs every 10 s.
 */
public record ReconcilerSettings(
    long batchIdleMillis,
    long batchMaxMillis,
    long disruptionIntervalMillis,
    LaunchSettings launchSettings,
    long drainPollSeconds,
    long drainPollMaxSeconds) {
  public static final ReconcilerSettings DEFAULTS = new ReconcilerSettings(1_000, 10_000, 10_000, LaunchSettings.DEFAULTS, 2, 30);
}
