package dev.farrier.workflows.replacement;

import dev.farrier.workflows.activities.DisruptionCommand;
import dev.farrier.workflows.provisioning.LaunchSettings;

/**
 * Input of {@link NodeReplacementWorkflow}: the planner's command and the worker's settings.
 *
 * @param drainPollSeconds first wait between drain passes while pods remain; doubles up to {@code drainPollMaxSeconds}
 */
public record ReplacementInput(
    String cluster,
    DisruptionCommand command,
    LaunchSettings launchSettings,
    long drainPollSeconds,
    long drainPollMaxSeconds) {}
