package dev.farrier.workflows.provisioning;

import dev.farrier.model.LaunchSettings;
import static dev.farrier.workflows.EventReasons.KIND_NODE_CLAIM;

import dev.farrier.workflows.ActivityStubs;
import dev.farrier.workflows.EventReasons;
import dev.farrier.workflows.EventRecorder;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.Failures;
import dev.farrier.workflows.StructuredLog;
import dev.farrier.workflows.activities.AwaitNodeRequest;
import dev.farrier.workflows.activities.NodeClaimActivities;
import dev.farrier.workflows.activities.NodeClaimRef;
import dev.farrier.workflows.activities.NodeRef;
import dev.farrier.workflows.activities.RegistrationFailure;
import dev.farrier.workflows.activities.TerminateInstanceRequest;
import dev.farrier.model.LaunchedInstance;
import dev.farrier.model.NodeClaimRequest;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Saga;
import io.temporal.workflow.Workflow;
import java.util.List;
import org.slf4j.Logger;

/**
 * The launch saga. Each compensation is registered before the step it undoes, so a step that fails half way (or a
 * cancellation while it runs) is still undone; compensations run in reverse: terminate the instance and wait until
 * it is gone, delete the Node, delete the NodeClaim.
 *
 * <p>Each step records its own Event (Launched, Registered, Initialized); a failure's Event is one {@code recordEvents}
 * activity.
 */
public class NodeLaunchWorkflowImpl implements NodeLaunchWorkflow {
  private static final Logger log = Workflow.getLogger(NodeLaunchWorkflowImpl.class);

  private LaunchPhase phase = LaunchPhase.CREATING;
  private LaunchedInstance instance;
  /** launchInstance was scheduled: an instance may exist even if no attempt returned one. */
  private boolean launchScheduled;
  private String nodeName;

  @Override
  public LaunchedNode launch(NodeLaunchInput input) {
    String cluster = input.cluster();
    NodeClaimRequest claim = input.claim();
    LaunchSettings settings = input.settings() == null ? LaunchSettings.DEFAULTS : input.settings();
    NodeClaimActivities claims = ActivityStubs.nodeClaims(settings);
    EventRecorder events = new EventRecorder(ActivityStubs.nodes(), cluster);
    NodeClaimRef claimRef = new NodeClaimRef(cluster, claim.name());

    Workflow.upsertTypedSearchAttributes(
        FarrierSearchAttributes.CLUSTER.valueSet(cluster),
        FarrierSearchAttributes.NODE_POOL.valueSet(claim.nodePool()),
        FarrierSearchAttributes.PHASE.valueSet(phase.label()));

    Saga saga = new Saga(new Saga.Options.Builder().setContinueWithError(true).build());
    try {
      saga.addCompensation(claims::deleteNodeClaim, claimRef);
      claims.createNodeClaim(claim);

      saga.addCompensation(() -> {
        if (nodeName != null) {
          claims.deleteNode(new NodeRef(cluster, nodeName, claim.name()));
        }
      });
      saga.addCompensation(() -> {
        if (instance != null || launchScheduled) {
          // With no instance id the activity finds the instance by the claim's tag, so a launch whose response was
          // lost leaks nothing.
          var state = claims.terminateInstance(new TerminateInstanceRequest(cluster, claim.name(), instance == null ? null : instance.instanceId()));
          claims.awaitInstanceTerminated(new TerminateInstanceRequest(cluster, claim.name(), state.instanceId()));
        }
      });
      enter(LaunchPhase.LAUNCHING);
      // Any attempt may have launched before a later one failed (even with a permanent error), so the saga
      // terminates by the claim's tag whenever the launch was tried.
      launchScheduled = true;
      instance = claims.launchInstance(new NodeClaimRef(cluster, claim.name(), true));
      Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.INSTANCE_ID.valueSet(instance.instanceId()));

      enter(LaunchPhase.REGISTERING);
      nodeName = claims.awaitRegistered(new AwaitNodeRequest(cluster, claim.name(), instance.providerId(), null));
      Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.NODE.valueSet(nodeName));
      var nodeRequest = new AwaitNodeRequest(cluster, claim.name(), instance.providerId(), nodeName);
      var registered = events.event(KIND_NODE_CLAIM, claim.name(), EventReasons.NORMAL, EventReasons.REGISTERED,
          "node " + nodeName + " registered");
      events.withStep(List.of(registered), caused -> claims.registerNode(nodeRequest.recording(caused)));

      enter(LaunchPhase.INITIALIZING);
      var initialized = events.event(KIND_NODE_CLAIM, claim.name(), EventReasons.NORMAL, EventReasons.INITIALIZED,
          "node " + nodeName + " initialized");
      events.withStep(List.of(initialized), caused -> claims.awaitInitialized(nodeRequest.recording(caused)));
      enter(LaunchPhase.INITIALIZED);
      StructuredLog.info(log, "launched nodeclaim", "nodeclaim", claim.name(), "nodepool", claim.nodePool(),
          "node", nodeName, "instance", instance.instanceId(), "instance-type", instance.instanceType(),
          "zone", instance.zone(), "capacity-type", instance.capacityType());
      return new LaunchedNode(instance, nodeName);
    } catch (TemporalFailure failure) {
      throw rollBack(cluster, claims, claim, settings, events, saga, failure);
    }
  }

  @Override
  public String phase() {
    return phase.label();
  }

  /** Runs the compensations (even when the launch was cancelled) and returns the failure to end the workflow with. */
  private RuntimeException rollBack(String cluster, NodeClaimActivities claims, NodeClaimRequest claim, LaunchSettings settings,
      EventRecorder events, Saga saga, TemporalFailure failure) {
    LaunchPhase failedIn = phase;
    boolean canceled = CancellationScope.current().isCancelRequested();
    enter(LaunchPhase.ROLLING_BACK);
    String message = "nodeclaim " + claim.name() + " failed while " + failedIn + ": " + cause(failedIn, settings, failure);
    String[] cleanup = new String[1];
    Workflow.newDetachedCancellationScope(() -> {
      events.warning(KIND_NODE_CLAIM, claim.name(), EventReasons.LAUNCH_FAILED, message);
      if (!canceled) {
        recordRegistrationFailure(cluster, claims, claim, failedIn, settings, failure);
      }
      cleanup[0] = compensate(saga);
    }).run();
    enter(LaunchPhase.FAILED);
    // Not logged: the failure is the workflow's result (UI, parent, CLI); logging it too would say it twice.
    String fullMessage = message + "; " + cleanup[0];
    if (canceled) {
      return new CanceledFailure(fullMessage);
    }
    return ApplicationFailure.newNonRetryableFailureWithCause(fullMessage, failureType(failedIn, failure), failure);
  }

  /**
   * Counts the failure for the pool's NodeRegistrationHealthy, as Karpenter counts a launch or registration that did
   * not happen: not a capacity error (another offering is tried; Karpenter does not count those either), not one
   * after the node registered. Best effort: the rollback goes on whatever happens to it.
   */
  private static void recordRegistrationFailure(String cluster, NodeClaimActivities claims, NodeClaimRequest claim,
      LaunchPhase failedIn, LaunchSettings settings, TemporalFailure failure) {
    String type = failureType(failedIn, failure);
    boolean counted = failedIn == LaunchPhase.REGISTERING
        || (failedIn == LaunchPhase.LAUNCHING && !FailureTypes.INSUFFICIENT_CAPACITY.equals(type));
    if (!counted) {
      return;
    }
    try {
      claims.recordRegistrationFailure(new RegistrationFailure(cluster, claim.nodePool(), claim.name(),
          failedIn == LaunchPhase.REGISTERING, type, cause(failedIn, settings, failure)));
    } catch (ActivityFailure notRecorded) {
      StructuredLog.warn(log, "registration failure not counted for the nodepool", "nodeclaim", claim.name(),
          "nodepool", claim.nodePool(), "error", Failures.reason(notRecorded));
    }
  }

  private String compensate(Saga saga) {
    String done = instance == null && launchScheduled
        ? "rolled back (any instance tagged for the claim terminated, NodeClaim deleted)"
        : instance == null
        ? "rolled back (no instance was launched, NodeClaim deleted)"
        : "rolled back (instance " + instance.instanceId() + " terminated, NodeClaim deleted)";
    try {
      saga.compensate();
      return done;
    } catch (Saga.CompensationException incomplete) {
      Throwable first = incomplete.getSuppressed().length > 0 ? incomplete.getSuppressed()[0] : incomplete;
      return "ROLLBACK INCOMPLETE, clean up by hand: " + Failures.reason(incomplete.getCause() == null ? first : incomplete.getCause());
    }
  }

  private static String cause(LaunchPhase failedIn, LaunchSettings settings, TemporalFailure failure) {
    if (Failures.outOfTime(failure) && failedIn == LaunchPhase.REGISTERING) {
      return "node did not register within " + settings.registrationTimeoutSeconds() + "s";
    }
    if (Failures.outOfTime(failure) && failedIn == LaunchPhase.INITIALIZING) {
      return "node did not initialize within " + settings.initializationTimeoutSeconds() + "s";
    }
    return Failures.reason(failure);
  }

  private static String failureType(LaunchPhase failedIn, TemporalFailure failure) {
    if (Failures.outOfTime(failure) && failedIn == LaunchPhase.REGISTERING) {
      return FailureTypes.REGISTRATION_TIMEOUT;
    }
    if (Failures.outOfTime(failure) && failedIn == LaunchPhase.INITIALIZING) {
      return FailureTypes.INITIALIZATION_TIMEOUT;
    }
    String type = Failures.type(failure);
    return FailureTypes.NON_RETRYABLE.contains(type) ? type : FailureTypes.LAUNCH_FAILED;
  }

  private void enter(LaunchPhase next) {
    phase = next;
    Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.PHASE.valueSet(next.label()));
  }
}
