package dev.farrier.workflows.replacement;

import dev.farrier.workflows.ChildWorkflowStarts;
import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.workflows.activities.PlanReplacementRequest;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.model.ReplacementPlan;
import dev.farrier.model.LaunchSettings;
import dev.farrier.workflows.provisioning.LaunchedNode;
import dev.farrier.workflows.provisioning.NodeLaunchInput;
import dev.farrier.workflows.provisioning.NodeLaunchWorkflow;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import org.slf4j.Logger;

/**
 * The replacement's launch, as a child {@code launch/<name>}: planned, started, and waited for until it is initialized.
 * A node that drains now (interrupted, or a forceful expiry: {@link LaunchContext#drainsNow()}) does not
 * wait: the launch is left running ({@link #stillRunning()}) and collected after the drain ({@link #collect()}), or
 * cancelled by an abort ({@link #cancel}); a cancelled launch rolls itself back. It knows the replacement only through
 * {@link LaunchContext}.
 */
final class ReplacementLaunch {
  private static final Logger log = Workflow.getLogger(ReplacementLaunch.class);

  private final LaunchContext workflow;
  private final PlanningActivities planning;
  private final String cluster;
  private final DisruptionCommand command;
  private final LaunchSettings settings;
  /** A launch left running because the node drains now; collected after the drain. */
  private Promise<LaunchedNode> pending;
  private CancellationScope pendingScope;

  ReplacementLaunch(LaunchContext workflow, PlanningActivities planning, String cluster,
      DisruptionCommand command, LaunchSettings settings) {
    this.workflow = workflow;
    this.planning = planning;
    this.cluster = cluster;
    this.command = command;
    this.settings = settings;
  }

  /** Plans the replacement, launches it and waits until it is initialized (or an abort or interruption arrives). */
  void run() {
    if (pending != null && workflow.forceful()) {
      // A retry of a forceful expiry: the launch its first attempt left running is still the replacement.
      return;
    }
    String proposedName = command.nodePool() + "-" + Workflow.randomUUID().toString().substring(0, 8);
    ReplacementPlan plan = planning.planReplacement(
        new PlanReplacementRequest(cluster, command.nodeClaim(), command.nodeName(), proposedName, command.maxPricePerHour(),
            command.consolidatedWith()));
    workflow.logDecision(plan);
    if (plan.replacement() == null) {
      if (plan.reschedulablePods() > 0 && workflow.drainsNow()) {
        // The node goes away anyway: its pods are better off pending (provisioning takes them) than killed.
        StructuredLog.warn(log, "no replacement for an " + workflow.goingAway() + " node, draining anyway", "nodeclaim",
            command.nodeClaim(), "node", command.nodeName(), "pods", plan.reschedulablePods(), "why", plan.description());
        return;
      }
      if (plan.reschedulablePods() > 0) {
        // Draining now would evict pods with nowhere to go: the replacement-first guarantee forbids it.
        throw ApplicationFailure.newNonRetryableFailure("no replacement can be planned for the " + plan.reschedulablePods()
            + " pod(s) on node " + command.nodeName() + ": " + plan.description(), FailureTypes.NO_REPLACEMENT_POSSIBLE);
      }
      return;
    }
    // An abort (or pause) that arrived while planning is honoured before anything is launched.
    workflow.checkpoint();
    String name = plan.replacement().name();
    workflow.replacement(name, null);
    @SuppressWarnings("unchecked")
    Promise<LaunchedNode>[] launch = new Promise[1];
    CancellationScope scope = Workflow.newCancellationScope(() -> {
      NodeLaunchWorkflow child = Workflow.newChildWorkflowStub(NodeLaunchWorkflow.class, ChildWorkflowStarts.launch(name));
      launch[0] = Async.function(child::launch, new NodeLaunchInput(cluster, plan.replacement().replacing(command.reason()), settings));
    });
    scope.run();
    Workflow.await(() -> launch[0].isCompleted() || workflow.abortRequested() || workflow.drainsNow());
    if (!launch[0].isCompleted() && !workflow.abortRequested()) {
      // Drain now: the launch goes on and is collected after the drain (or cancelled by an abort).
      pending = launch[0];
      pendingScope = scope;
      workflow.noticeInterruption();
      return;
    }
    if (!launch[0].isCompleted()) {
      // The launch rolls itself back when cancelled; waiting for it means nothing is left half launched.
      scope.cancel("replacement of " + command.nodeClaim() + " aborted: " + workflow.abortDescription());
    }
    LaunchedNode launched;
    try {
      launched = launch[0].get();
      workflow.replacement(name, launched);
    } catch (ChildWorkflowFailure failure) {
      if (workflow.abortRequested()) {
        throw new AbortRequested();
      }
      if (workflow.drainsNow()) {
        failedWhileDraining(failure);
        return;
      }
      throw ApplicationFailure.newNonRetryableFailureWithCause(
          "replacement nodeclaim " + name + " for node " + command.nodeName() + " failed to launch: "
              + Failures.reason(failure), FailureTypes.REPLACEMENT_LAUNCH_FAILED, failure);
    }
    StructuredLog.info(log, "replacement initialized", "nodeclaim", command.nodeClaim(),
        "replacement", name, "node", launched.nodeName());
    if (workflow.abortRequested()) {
      throw new AbortRequested();
    }
  }

  /** A launch left running by an interruption and not finished yet. */
  boolean stillRunning() {
    return pending != null && !pending.isCompleted();
  }

  /** Collects a launch left running by a node that drains now; its failure no longer matters to the node going away. */
  void collect() {
    if (pending == null) {
      return;
    }
    String name = workflow.replacementName();
    try {
      LaunchedNode launched = pending.get();
      workflow.replacement(name, launched);
      StructuredLog.info(log, "replacement initialized", "nodeclaim", command.nodeClaim(),
          "replacement", name, "node", launched.nodeName());
    } catch (ChildWorkflowFailure failure) {
      failedWhileDraining(failure);
    }
    pending = null;
  }

  /** On abort: a launch left running is cancelled and waited for (it rolls itself back); an initialized one is kept. */
  void cancel(String why) {
    if (pending == null) {
      return;
    }
    if (!pending.isCompleted()) {
      pendingScope.cancel(why);
    }
    String name = workflow.replacementName();
    try {
      workflow.replacement(name, pending.get());
    } catch (ChildWorkflowFailure cancelled) {
      workflow.replacement(name, null); // the launch rolled itself back
    }
    pending = null;
  }

  private void failedWhileDraining(ChildWorkflowFailure failure) {
    String name = workflow.replacementName();
    StructuredLog.warn(log, "replacement of an " + workflow.goingAway() + " node failed to launch", "nodeclaim",
        command.nodeClaim(), "node", command.nodeName(), "replacement", name, "error", Failures.reason(failure));
    workflow.warnOnNode(EventReasons.LAUNCH_FAILED, "replacement " + name + " failed to launch: "
        + Failures.reason(failure) + "; the " + workflow.goingAway() + " node is drained anyway");
    workflow.replacement(name, null);
  }
}
