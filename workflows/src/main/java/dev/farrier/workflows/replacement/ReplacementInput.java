package dev.farrier.workflows.replacement;

import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.LaunchSettings;

/**
 * Input of {@link NodeReplacementWorkflow}: the planner's command and the worker's settings.
 *
 * @param drainPollSeconds first wait between drain passes while pods remain; doubles up to {@code drainPollMaxSeconds}
 * @param interruption     null for a planned replacement; set when the node is being interrupted (see {@link Interruption})
 * @param state            null for a new replacement; the whole state when a long drain continued as new
 * @param approvalRequired wait for an operator's {@code Approve} once the replacement is up, before the old node is
 *                         cordoned and drained
 * @param owner            the fleet upgrade ({@code upgrade/...}) that started this replacement, null otherwise: a step
 *                         that fails before the point of no return then gives the node back and fails at once, so the
 *                         rollout decides, instead of waiting for an operator's Retry
 */
public record ReplacementInput(
    String cluster,
    DisruptionCommand command,
    LaunchSettings launchSettings,
    long drainPollSeconds,
    long drainPollMaxSeconds,
    Interruption interruption,
    ReplacementState state,
    boolean approvalRequired,
    String owner) {

  public ReplacementInput(String cluster, DisruptionCommand command, LaunchSettings launchSettings, long drainPollSeconds,
      long drainPollMaxSeconds) {
    this(cluster, command, launchSettings, drainPollSeconds, drainPollMaxSeconds, null, null, false, null);
  }

  public ReplacementInput(String cluster, DisruptionCommand command, LaunchSettings launchSettings, long drainPollSeconds,
      long drainPollMaxSeconds, Interruption interruption) {
    this(cluster, command, launchSettings, drainPollSeconds, drainPollMaxSeconds, interruption, null, false, null);
  }

  /** The input of the next run of a drain that continues as new. */
  ReplacementInput continuedWith(ReplacementState next) {
    return new ReplacementInput(cluster, command, launchSettings, drainPollSeconds, drainPollMaxSeconds, null, next,
        approvalRequired, owner);
  }

  public ReplacementInput withApprovalRequired(boolean required) {
    return new ReplacementInput(cluster, command, launchSettings, drainPollSeconds, drainPollMaxSeconds, interruption,
        state, required, owner);
  }

  /** Started by the fleet upgrade {@code rollout}: fails at once instead of waiting for a Retry. */
  public ReplacementInput ownedBy(String rollout) {
    return new ReplacementInput(cluster, command, launchSettings, drainPollSeconds, drainPollMaxSeconds, interruption,
        state, approvalRequired, rollout);
  }
}
