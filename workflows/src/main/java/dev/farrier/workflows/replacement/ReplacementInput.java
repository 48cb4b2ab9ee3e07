package dev.farrier.workflows.replacement;

import dev.farrier.workflows.activities.DisruptionCommand;
import dev.farrier.workflows.provisioning.LaunchSettings;

/**
 * Input of {@link NodeReplacementWorkflow}: the planner's command and the worker's settings.
 *
 * @param drainPollSeconds first wait between drain passes while pods remain; doubles up to {@code drainPollMaxSeconds}
 * @param resume           null for a new replacement; set when a long drain continued as new (see {@link DrainResume})
 * @param interruption     null for a planned replacement; set when the node is being interrupted (see {@link Interruption})
 */
public record ReplacementInput(
    String cluster,
    DisruptionCommand command,
    LaunchSettings launchSettings,
    long drainPollSeconds,
    long drainPollMaxSeconds,
    DrainResume resume,
    Interruption interruption) {

  public ReplacementInput(String cluster, DisruptionCommand command, LaunchSettings launchSettings, long drainPollSeconds,
      long drainPollMaxSeconds) {
    this(cluster, command, launchSettings, drainPollSeconds, drainPollMaxSeconds, null, null);
  }

  public ReplacementInput(String cluster, DisruptionCommand command, LaunchSettings launchSettings, long drainPollSeconds,
      long drainPollMaxSeconds, DrainResume resume) {
    this(cluster, command, launchSettings, drainPollSeconds, drainPollMaxSeconds, resume, null);
  }
}
