package dev.farrier.workflows.interruption;

import static dev.farrier.workflows.EventReasons.KIND_NODE;

import dev.farrier.workflows.ActivityStubs;
import dev.farrier.workflows.ChildWorkflowStarts;
import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.EventRecorder;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.activities.DeleteMessagesRequest;
import dev.farrier.workflows.activities.DeletedMessages;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.workflows.activities.InterruptionActivities;
import dev.farrier.workflows.activities.InterruptionKind;
import dev.farrier.workflows.activities.InterruptionNotice;
import dev.farrier.workflows.activities.InterruptionTarget;
import dev.farrier.workflows.activities.MarkUnavailableRequest;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.ReceiveInterruptionsRequest;
import dev.farrier.workflows.activities.ReceivedInterruptions;
import dev.farrier.workflows.activities.ResolveInterruptionRequest;
import dev.farrier.workflows.activities.ResolvedInterruption;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.workflows.replacement.Interruption;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.ReplacementInput;
import dev.farrier.model.ReplacementResult;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import org.slf4j.Logger;

/**
 * Polls the interruption queue forever, one notice at a time in arrival order. Pure orchestration: the activities
 * receive, resolve and delete; this class decides what each notice means for Farrier's nodes.
 *
 * <p>A message is deleted only when every instance it names was dealt with: its replacement started or escalated,
 * its Event recorded, or found not to be Farrier's. A notice that could not be handled (Kubernetes unreachable, the
 * replacement failed to start) stays in the queue and comes back after its visibility timeout; its replacement's id
 * ({@code disrupt/<nodeclaim>}) makes handling it twice harmless.
 */
public class InterruptionWorkflowImpl implements InterruptionWorkflow {
  private static final Logger log = Workflow.getLogger(InterruptionWorkflowImpl.class);

  /** Each idle poll costs 3 history events: continue as new well before the history grows large. */
  static final int MAX_POLLS_PER_RUN = 500;
  /** How long to wait after the queue itself failed (the receive activity's retries are exhausted). */
  static final Duration QUEUE_FAILURE_BACKOFF = Duration.ofSeconds(30);
  private static final int RECENT_ACTIONS = 20;

  private String cluster;
  private String queue;
  private ReconcilerSettings settings;
  private InterruptionCounts counts = InterruptionCounts.ZERO;
  private final LinkedList<String> recentActions = new LinkedList<>();
  private InterruptionActivities activities;
  private EventRecorder events;

  @Override
  public void run(InterruptionInput input) {
    cluster = input.cluster();
    queue = input.queue();
    settings = input.settings() == null ? ReconcilerSettings.DEFAULTS : input.settings();
    counts = input.counts();
    activities = ActivityStubs.interruption();
    events = new EventRecorder(ActivityStubs.nodes(), cluster);
    StructuredLog.info(log, "interruption queue polling", "cluster", cluster, "queue", queue);
    int maxPolls = input.maxPollsPerRun() > 0 ? input.maxPollsPerRun() : MAX_POLLS_PER_RUN;
    for (int poll = 1; ; poll++) {
      if (poll > maxPolls || Workflow.getInfo().isContinueAsNewSuggested()) {
        Workflow.await(Workflow::isEveryHandlerFinished);
        StructuredLog.info(log, "interruption polling continues as new", "queue", queue, "polls", poll - 1);
        Workflow.continueAsNew(new InterruptionInput(cluster, queue, settings, counts, input.maxPollsPerRun()));
      }
      ReceivedInterruptions received;
      try {
        received = activities.receive(new ReceiveInterruptionsRequest(queue));
      } catch (ActivityFailure failure) {
        StructuredLog.warn(log, "interruption queue unreachable, backing off", "queue", queue,
            "error", Failures.reason(failure), "retryIn", QUEUE_FAILURE_BACKOFF.toString());
        Workflow.sleep(QUEUE_FAILURE_BACKOFF);
        continue;
      }
      count(new InterruptionCounts(received.notices().size(), received.malformed(), received.ignored(), 0, 0, 0, 0, 0));
      List<String> handled = new ArrayList<>();
      for (InterruptionNotice notice : received.notices()) {
        if (handle(notice)) {
          handled.add(notice.receiptHandle());
        }
      }
      if (!handled.isEmpty()) {
        delete(handled);
      }
    }
  }

  @Override
  public void updateSettings(ReconcilerSettings newSettings) {
    if (newSettings != null) {
      settings = newSettings;
    }
  }

  @Override
  public InterruptionStatus status() {
    return new InterruptionStatus(queue, counts, List.copyOf(recentActions));
  }

  /** Returns whether the notice is fully handled, so its message may be deleted. */
  private boolean handle(InterruptionNotice notice) {
    ResolvedInterruption resolved;
    try {
      resolved = activities.resolve(new ResolveInterruptionRequest(cluster, notice.kind(), notice.detail(), notice.instanceIds()));
    } catch (ActivityFailure failure) {
      StructuredLog.warn(log, "interruption notice not resolved, left in the queue", "kind", notice.kind(),
          "instances", notice.instanceIds(), "message", notice.messageId(), "error", Failures.reason(failure));
      return false;
    }
    boolean all = true;
    for (InterruptionTarget target : resolved.targets()) {
      all &= handle(notice, target);
    }
    return all;
  }

  private boolean handle(InterruptionNotice notice, InterruptionTarget target) {
    InterruptionKind kind = notice.kind();
    if (!target.farriers()) {
      StructuredLog.info(log, "interruption notice for an instance Farrier did not launch, ignored", "kind", kind,
          "instance", target.instanceId(), "message", notice.messageId());
      count(new InterruptionCounts(0, 0, 0, 1, 0, 0, 0, 0));
      return true;
    }
    DisruptionCommand command = target.command();
    if (kind == InterruptionKind.SpotInterruption) {
      markUnavailable(command, target.zone());
    }
    if (!kind.urgent()) {
      if (!target.rebalanceReplacement()) {
        events.normal(KIND_NODE, nodeOrClaim(command), EventReasons.REBALANCE_RECOMMENDED,
            "EC2 recommends rebalancing instance " + target.instanceId() + " away; not replaced (NodePool "
                + command.nodePool() + " has no farrier.dev/rebalance-replacement: \"true\")");
        remember("recorded " + kind + " on " + nodeOrClaim(command));
        count(new InterruptionCounts(0, 0, 0, 0, 0, 0, 1, 0));
        return true;
      }
      return markForPlanner(target, command);
    }
    return startOrEscalate(notice, command);
  }

  /**
   * A rebalance is voluntary: the node is marked for the disruption planner, which replaces it under the same
   * budgets and do-not-disrupt rules as drift (one place decides), instead of a replacement started here.
   */
  private boolean markForPlanner(InterruptionTarget target, DisruptionCommand command) {
    if (command.nodeName() != null) {
      try {
        activities.markRebalanceRecommended(new NodeRef(cluster, command.nodeName(), command.nodeClaim()));
      } catch (ActivityFailure failure) {
        StructuredLog.warn(log, "rebalance recommendation not marked, left in the queue", "nodeclaim", command.nodeClaim(),
            "error", Failures.reason(failure));
        return false;
      }
    }
    events.normal(KIND_NODE, nodeOrClaim(command), EventReasons.REBALANCE_RECOMMENDED,
        "EC2 recommends rebalancing instance " + target.instanceId() + " away; NodePool " + command.nodePool()
            + " opted in: replacing it as a voluntary disruption when its budget and do-not-disrupt allow");
    remember("marked " + nodeOrClaim(command) + " for rebalancing");
    count(new InterruptionCounts(0, 0, 0, 0, 0, 0, 1, 0));
    return true;
  }

  /**
   * Starts {@code disrupt/<nodeclaim>} for a node going away, in "drain now" mode; when one is already running, tells it
   * the node is going away.
   */
  private boolean startOrEscalate(InterruptionNotice notice, DisruptionCommand command) {
    String id = WorkflowIds.disruption(command.nodeClaim());
    Interruption interruption = new Interruption(notice.kind().name(), notice.detail());
    NodeReplacementWorkflow child = Workflow.newChildWorkflowStub(NodeReplacementWorkflow.class,
        ChildWorkflowStarts.disruption(cluster, command));
    Promise<ReplacementResult> result = Async.function(child::replace, new ReplacementInput(cluster, command,
        settings.launchSettings(), settings.drainPollSeconds(), settings.drainPollMaxSeconds(), interruption));
    try {
      Workflow.getWorkflowExecution(child).get();
    } catch (ChildWorkflowFailure failure) {
      if (!ChildWorkflowStarts.alreadyStarted(failure)) {
        StructuredLog.warn(log, "could not start replacement for interruption, left in the queue", "nodeclaim",
            command.nodeClaim(), "kind", notice.kind(), "error", Failures.reason(failure));
        return false;
      }
      return escalate(id, command, interruption);
    }
    StructuredLog.info(log, "replacement started for interruption", "nodeclaim", command.nodeClaim(),
        "node", command.nodeName(), "instance", command.instanceId(), "reason", notice.kind(), "workflow", id);
    remember("started " + id + " for " + notice.kind() + " of " + command.instanceId());
    count(new InterruptionCounts(0, 0, 0, 0, 1, 0, 0, 0));
    result.handle((done, failure) -> {
      if (failure != null) {
        StructuredLog.warn(log, "replacement for interruption failed", "nodeclaim", command.nodeClaim(), "workflow", id,
            "error", Failures.reason(failure));
      }
      return null;
    });
    return true;
  }

  private boolean escalate(String id, DisruptionCommand command, Interruption interruption) {
    try {
      Workflow.newExternalWorkflowStub(NodeReplacementWorkflow.class, id).interrupted(interruption);
    } catch (TemporalFailure failure) {
      // It closed between the failed start and the signal: the message comes back and starts a new one then.
      StructuredLog.warn(log, "could not escalate running replacement, left in the queue", "nodeclaim",
          command.nodeClaim(), "workflow", id, "error", Failures.reason(failure));
      return false;
    }
    StructuredLog.info(log, "running replacement escalated: drain now", "nodeclaim", command.nodeClaim(),
        "node", command.nodeName(), "reason", interruption.reason(), "workflow", id);
    remember("escalated " + id + " for " + interruption.reason());
    count(new InterruptionCounts(0, 0, 0, 0, 0, 1, 0, 0));
    return true;
  }

  /** Best effort: a launch that still picks the offering fails over to another one. */
  private void markUnavailable(DisruptionCommand command, String zone) {
    if (command.instanceType() == null || zone == null || command.capacityType() == null) {
      return;
    }
    try {
      activities.markUnavailable(new MarkUnavailableRequest(command.instanceType(), zone, command.capacityType(),
          InterruptionKind.SpotInterruption.name() + " of " + command.instanceId()));
    } catch (ActivityFailure failure) {
      StructuredLog.warn(log, "could not mark offering unavailable", "instanceType", command.instanceType(),
          "zone", zone, "error", Failures.reason(failure));
    }
  }

  private void delete(List<String> receiptHandles) {
    try {
      DeletedMessages deleted = activities.deleteMessages(new DeleteMessagesRequest(queue, receiptHandles));
      if (!deleted.failures().isEmpty()) {
        StructuredLog.warn(log, "interruption messages not deleted, they will be handled again", "queue", queue,
            "failures", deleted.failures());
        count(new InterruptionCounts(0, 0, 0, 0, 0, 0, 0, deleted.failures().size()));
      }
    } catch (ActivityFailure failure) {
      StructuredLog.warn(log, "interruption messages not deleted, they will be handled again", "queue", queue,
          "messages", receiptHandles.size(), "error", Failures.reason(failure));
      count(new InterruptionCounts(0, 0, 0, 0, 0, 0, 0, receiptHandles.size()));
    }
  }

  private void count(InterruptionCounts more) {
    counts = counts.plus(more);
  }

  private void remember(String action) {
    recentActions.add(action);
    if (recentActions.size() > RECENT_ACTIONS) {
      recentActions.removeFirst();
    }
  }

  private static String nodeOrClaim(DisruptionCommand command) {
    return command.nodeName() != null ? command.nodeName() : command.nodeClaim();
  }
}
