package dev.farrier.workflows.replay;

import dev.farrier.workflows.interruption.InterruptionWorkflowImpl;
import dev.farrier.workflows.provisioning.NodeLaunchWorkflowImpl;
import dev.farrier.workflows.provisioning.ProvisioningWorkflowImpl;
import dev.farrier.workflows.reconciler.ClusterReconcilerWorkflowImpl;
import dev.farrier.workflows.replacement.NodeReplacementWorkflowImpl;
import dev.farrier.workflows.upgrade.NodePoolUpgradeWorkflowImpl;
import io.temporal.testing.WorkflowReplayer;
import org.junit.jupiter.api.Test;

/**
 * Determinism guard: each checked-in history (written by {@link HistoryRecorder}) must replay against today's
 * workflow code. A failure here means a change would break workflows already running: gate it with
 * {@code Workflow.getVersion}.
 */
class WorkflowReplayTest {
  @Test
  void nodeLaunchReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/NodeLaunchWorkflow.json", NodeLaunchWorkflowImpl.class);
  }

  /** Version 1 of {@code events-with-steps}: the steps record their own Events. */
  @Test
  void nodeLaunchWithEventsInItsStepsReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/NodeLaunchWorkflow-events-with-steps.json",
        NodeLaunchWorkflowImpl.class);
  }

  @Test
  void provisioningReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/ProvisioningWorkflow.json", ProvisioningWorkflowImpl.class);
  }

  @Test
  void nodeReplacementReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/NodeReplacementWorkflow.json",
        NodeReplacementWorkflowImpl.class);
  }

  /**
   * Version 1 of {@code events-with-steps}: steps record their Events, the others are one activity per call,
   * terminate-and-wait and the final deletes one activity each.
   */
  @Test
  void replacementWithEventsInItsStepsReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/NodeReplacementWorkflow-events-with-steps.json",
        NodeReplacementWorkflowImpl.class);
  }

  /** Interruption handling (version 1 of {@code interruption-drains-now}): drains while the replacement launches. */
  @Test
  void interruptedNodeReplacementReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/NodeReplacementWorkflow-interrupted.json",
        NodeReplacementWorkflowImpl.class);
  }

  /** Version 1 of {@code operator-actions}: Retry and ForceDrain Updates, blocker search attributes, NodeClaim Events. */
  @Test
  void replacementSteeredByAnOperatorReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/NodeReplacementWorkflow-operator.json",
        NodeReplacementWorkflowImpl.class);
  }

  /** Version 1 of {@code expiry-drains-now}: a forceful expiry drains while its replacement launches. */
  @Test
  void forcefulExpiryReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/NodeReplacementWorkflow-expired.json",
        NodeReplacementWorkflowImpl.class);
  }

  @Test
  void interruptionReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/InterruptionWorkflow.json", InterruptionWorkflowImpl.class);
  }

  @Test
  void clusterReconcilerReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/ClusterReconcilerWorkflow.json",
        ClusterReconcilerWorkflowImpl.class);
  }

  /**
   * Written by the code before {@code refill-on-close}, {@code requeue-offers-made-in-flight} and
   * {@code replacement-starts-together} (d1e7095's parent): a round of three replacements started one after the other,
   * the next rounds at the interval. Fails if the refill is taken without its version; asking for the three in one
   * task without it still replays (the SDK matches each start to its event in order), so that gate only keeps the
   * newer history from replaying the older way.
   */
  @Test
  void clusterReconcilerRoundsOfTheCodeBeforeTheRefillReplay() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/ClusterReconcilerWorkflow-rounds-before-refill.json",
        ClusterReconcilerWorkflowImpl.class);
  }

  /** The same run at version 1 of those three changes: the three asked for in one task, the next round 1 s after a close. */
  @Test
  void clusterReconcilerRoundsReplay() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/ClusterReconcilerWorkflow-rounds.json",
        ClusterReconcilerWorkflowImpl.class);
  }

  /**
   * Written by the code before {@code carried-state-before-signals} (852c908): signals in the first task applied before
   * the carried batch was taken over, so both pods went into the first batch and none after the carried one closed.
   * Fails if the carried state is taken over first without that version (a batch of one pod after the close).
   */
  @Test
  void clusterReconcilerSignalledBeforeItsCarriedStateReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/ClusterReconcilerWorkflow-signals-before-carried.json",
        ClusterReconcilerWorkflowImpl.class);
  }

  /** The same run at version 1 of {@code carried-state-before-signals}: b alone, then a after its carried batch closed. */
  @Test
  void clusterReconcilerTakingOverItsCarriedStateFirstReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/ClusterReconcilerWorkflow-carried-first.json",
        ClusterReconcilerWorkflowImpl.class);
  }

  /**
   * Version 1 of {@code replacement-closed-signal}: a replacement tells its reconciler it closed. Fails without the
   * version check (the signal would be a command the older histories above do not have).
   */
  @Test
  void replacementThatTellsItsReconcilerReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/NodeReplacementWorkflow-closed-signal.json",
        NodeReplacementWorkflowImpl.class);
  }

  /** A reconciler whose replacements tell it they closed: its own counted once, one started by hand brings a round forward. */
  @Test
  void clusterReconcilerToldOfClosedReplacementsReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/ClusterReconcilerWorkflow-replacement-closed-signal.json",
        ClusterReconcilerWorkflowImpl.class);
  }

  /** Version 1 of {@code batch-closed-signal}: the batch tells its reconciler it closed. */
  @Test
  void provisioningThatTellsItsReconcilerReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/ProvisioningWorkflow-batch-closed-signal.json",
        ProvisioningWorkflowImpl.class);
  }

  /** Version 1 of {@code launches-closed-signal}: a launch that closes while another runs releases its pods. */
  @Test
  void provisioningThatReleasesPodsAsLaunchesCloseReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/ProvisioningWorkflow-launches-closed-signal.json",
        ProvisioningWorkflowImpl.class);
  }

  /**
   * Written by the code before {@code rolling-gate-sleeps} and {@code RolloutBatch.heldCount} (7b78aab): a rolling
   * rollout whose planner listed every waiting node (its slots' own included), stopped by a failed gate while another
   * slot's gate soaked; that gate woke on the stop and cancelled its timer. Fails if the slot's gate sleeps without
   * that version.
   */
  @Test
  void rollingRolloutFromBeforeTheGatesSleptReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/NodePoolUpgradeWorkflow-rolling.json",
        NodePoolUpgradeWorkflowImpl.class);
  }

  /** The same run at version 1 of {@code rolling-gate-sleeps}, the planner naming the first waiting node and a count. */
  @Test
  void rollingRolloutWhoseGatesSleepReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/NodePoolUpgradeWorkflow-rolling-gate-sleeps.json",
        NodePoolUpgradeWorkflowImpl.class);
  }

  /**
   * The same run at version 1 of {@code rollout-plan-in-one-step}: each plan one activity that also answers the freeze
   * and the old nodes' workloads. Fails if the plan is asked in one step without that version (the two histories
   * above then find a {@code planRollout} where their {@code frozen} was).
   */
  @Test
  void rollingRolloutPlannedInOneStepReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/NodePoolUpgradeWorkflow-rollout-plan-in-one-step.json",
        NodePoolUpgradeWorkflowImpl.class);
  }

  /**
   * The run a rolling rollout continued as with its slots in flight (version 1 of {@code rolling-hand-over-in-flight}):
   * it gates the carried slots, follows the one still running ({@code awaitClosed}) and rolls on. Fails if the carried
   * slots are not taken over first, or are followed another way.
   */
  @Test
  void rollingRolloutThatTookOverSlotsInFlightReplays() throws Exception {
    WorkflowReplayer.replayWorkflowExecutionFromResource("histories/NodePoolUpgradeWorkflow-rolling-hand-over-in-flight.json",
        NodePoolUpgradeWorkflowImpl.class);
  }
}
