package dev.farrier.workflows.interruption;

import dev.farrier.model.ReconcilerSettings;
import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * {@code interruption/<queue>}: long-polls the interruption queue, maps each EventBridge notice to Farrier's nodes,
 * starts or escalates their replacements ({@code disrupt/<nodeclaim>}), and deletes each message once it is handled.
 * Runs until terminated; continues as new when the server suggests it.
 */
@WorkflowInterface
public interface InterruptionWorkflow {
  @WorkflowMethod
  void run(InterruptionInput input);

  /** Replacement settings from a worker's configuration; they apply to replacements started from then on. */
  @SignalMethod
  void updateSettings(ReconcilerSettings settings);

  @QueryMethod
  InterruptionStatus status();
}
