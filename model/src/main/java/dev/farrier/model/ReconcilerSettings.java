package dev.farrier.model;

import dev.farrier.model.LaunchSettings;

/**
 * Timing of the reconciler, from the worker's configuration. Defaults: a batch closes after 1 s without a new
 * pending pod or 10 s after it opened; the disruption planner runs every 10 s.
 *
 * @param nodeRepair node repair on (Karpenter's feature gate {@code NodeRepair}, off by default): the disruption
 *                   planner replaces nodes unhealthy past their toleration ({@code planner.Repair}); absent from
 *                   settings sent before it, which read as off
 */
public record ReconcilerSettings(
    long batchIdleMillis,
    long batchMaxMillis,
    long disruptionIntervalMillis,
    LaunchSettings launchSettings,
    long drainPollSeconds,
    long drainPollMaxSeconds,
    boolean nodeRepair) {
  public static final ReconcilerSettings DEFAULTS = new ReconcilerSettings(1_000, 10_000, 10_000, LaunchSettings.DEFAULTS, 2, 30);

  /** Node repair off, as by default. */
  public ReconcilerSettings(long batchIdleMillis, long batchMaxMillis, long disruptionIntervalMillis, LaunchSettings launchSettings,
      long drainPollSeconds, long drainPollMaxSeconds) {
    this(batchIdleMillis, batchMaxMillis, disruptionIntervalMillis, launchSettings, drainPollSeconds, drainPollMaxSeconds, false);
  }
}
