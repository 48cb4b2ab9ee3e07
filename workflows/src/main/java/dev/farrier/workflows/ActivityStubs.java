package dev.farrier.workflows;

import dev.farrier.workflows.activities.InterruptionActivities;
import dev.farrier.workflows.activities.NodeActivities;
import dev.farrier.workflows.activities.NodeClaimActivities;
import dev.farrier.workflows.activities.PlanningActivities;
import dev.farrier.workflows.activities.PreviewActivities;
import dev.farrier.workflows.activities.RolloutActivities;
import dev.farrier.model.LaunchSettings;
import io.temporal.activity.ActivityCancellationType;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.Map;

/**
 * The one place activity options are declared, per activity method. Every activity has a StartToClose (one attempt)
 * and a ScheduleToClose (all attempts together, so a broken dependency fails the step instead of retrying forever);
 * the activities that wait ({@code await*}, the drain pass, terminate-and-wait) heartbeat, so a dead worker is
 * noticed after {@link #AWAIT_HEARTBEAT} rather than at the end of the wait. The permanent failure types of
 * {@link FailureTypes#NON_RETRYABLE} are never retried.
 *
 * <p>Keys are activity type names: the method name with its first letter upper-cased (the SDK's default).
 */
public final class ActivityStubs {
  private ActivityStubs() {}

  /**
   * Heartbeating activities (the waits and the drain pass) must heartbeat more often than this; a worker that dies
   * during one is noticed within it and the activity retried elsewhere (a kill -9 mid-drain costs seconds, not the
   * activity's whole StartToClose).
   */
  public static final Duration AWAIT_HEARTBEAT = Duration.ofSeconds(10);

  public static final RetryOptions RETRY = RetryOptions.newBuilder()
      .setInitialInterval(Duration.ofSeconds(1))
      .setBackoffCoefficient(2.0)
      .setMaximumInterval(Duration.ofMinutes(1))
      .setDoNotRetry(FailureTypes.NON_RETRYABLE.toArray(String[]::new))
      .build();

  /** A quick API call (Kubernetes patch, EC2 describe): short attempts, a few minutes of retries. */
  private static final ActivityOptions QUICK = call(Duration.ofSeconds(30), Duration.ofMinutes(5));
  /** A cleanup step a saga or a replacement must get done: short attempts, retried for a long time. */
  private static final ActivityOptions CLEANUP = call(Duration.ofSeconds(30), Duration.ofMinutes(30));

  public static NodeClaimActivities nodeClaims(LaunchSettings settings) {
    return Workflow.newActivityStub(NodeClaimActivities.class, QUICK, nodeClaimOptions(settings));
  }

  public static NodeActivities nodes() {
    return Workflow.newActivityStub(NodeActivities.class, QUICK, nodeOptions());
  }

  public static InterruptionActivities interruption() {
    return Workflow.newActivityStub(InterruptionActivities.class, QUICK, interruptionOptions());
  }

  public static RolloutActivities rollout() {
    return Workflow.newActivityStub(RolloutActivities.class, QUICK, rolloutOptions());
  }

  public static PreviewActivities preview() {
    return Workflow.newActivityStub(PreviewActivities.class, QUICK, previewOptions());
  }

  public static PlanningActivities planning() {
    return Workflow.newActivityStub(PlanningActivities.class, QUICK, planningOptions());
  }

  /** Registration and initialization are bounded by the launch settings: the activity's ScheduleToClose is the bound. */
  public static Map<String, ActivityOptions> nodeClaimOptions(LaunchSettings settings) {
    return Map.ofEntries(
        Map.entry("CreateNodeClaim", QUICK),
        // CreateFleet may take tens of seconds; retries are safe because the launch looks up its tagged instance first.
        // On cancellation (an abort) the saga must not look the instance up while an attempt is still creating it.
        Map.entry("LaunchInstance", ActivityOptions.newBuilder(call(Duration.ofMinutes(2), Duration.ofMinutes(10)))
            .setCancellationType(ActivityCancellationType.WAIT_CANCELLATION_COMPLETED).build()),
        Map.entry("AwaitRegistered", await(Duration.ofSeconds(settings.registrationTimeoutSeconds()))),
        Map.entry("RegisterNode", QUICK),
        Map.entry("RecordRegistrationFailure", QUICK),
        Map.entry("AwaitInitialized", await(Duration.ofSeconds(settings.initializationTimeoutSeconds()))),
        Map.entry("TerminateInstance", call(Duration.ofMinutes(1), Duration.ofMinutes(30))),
        Map.entry("AwaitInstanceTerminated", await(Duration.ofMinutes(30))),
        // The two above in one: bounded as their wait is; the terminate call is retried with it.
        Map.entry("TerminateInstanceAndWait", await(Duration.ofMinutes(30))),
        // One describe: a drain asks it between passes, and an answer it cannot get proves nothing.
        Map.entry("InstanceState", call(Duration.ofSeconds(10), Duration.ofSeconds(30))),
        Map.entry("DeleteNode", CLEANUP),
        Map.entry("DeleteNodeClaim", CLEANUP),
        Map.entry("DeleteNodeAndClaim", CLEANUP));
  }

  public static Map<String, ActivityOptions> nodeOptions() {
    return Map.of(
        "TaintDisrupted", call(Duration.ofSeconds(30), Duration.ofMinutes(10)),
        "UntaintDisrupted", CLEANUP,
        "Cordon", call(Duration.ofSeconds(30), Duration.ofMinutes(10)),
        "Uncordon", CLEANUP,
        // One pass evicts every evictable pod once, heartbeating per pod; PDB blocks are results, not failures.
        "DrainStep", heartbeating(call(Duration.ofMinutes(2), Duration.ofMinutes(10))),
        // One pass's surges: per pod a few bounded reads, at most three patches and a few Events, heartbeating between
        // calls; no new surge started after 20 s.
        "Surge", heartbeating(call(Duration.ofSeconds(45), Duration.ofMinutes(2))),
        "MarkAborted", CLEANUP,
        // Best effort: an Event is never worth holding a workflow up for long.
        "RecordEvent", call(Duration.ofSeconds(10), Duration.ofMinutes(1)),
        "RecordEvents", call(Duration.ofSeconds(10), Duration.ofMinutes(1)));
  }

  public static Map<String, ActivityOptions> planningOptions() {
    return Map.of(
        "PlanProvisioning", call(Duration.ofMinutes(1), Duration.ofMinutes(5)),
        "PlanReplacement", call(Duration.ofMinutes(1), Duration.ofMinutes(5)),
        "PlanRollout", call(Duration.ofMinutes(1), Duration.ofMinutes(5)),
        "RecheckDisruption", call(Duration.ofMinutes(1), Duration.ofMinutes(3)),
        // The reconciler plans again at its next interval, so a failed round is cheap.
        "PlanDisruption", call(Duration.ofMinutes(1), Duration.ofMinutes(3)));
  }

  /**
   * A preview reads the cluster (the informer cache), the cloud's images and Temporal's visibility once each and waits
   * for nothing, so it does not heartbeat: a minute bounds one attempt. It writes nothing, so it is retried freely, for
   * 2 minutes: shorter than the preview workflow's run (2.5 minutes) and the CLI's wait (3), so its failure is what the
   * user sees.
   */
  public static Map<String, ActivityOptions> previewOptions() {
    return Map.of("PreviewRollout", call(Duration.ofMinutes(1), Duration.ofMinutes(2)));
  }

  public static Map<String, ActivityOptions> rolloutOptions() {
    return Map.of(
        "Claim", QUICK,
        "SwitchImages", CLEANUP,
        // The status loop resolves a changed class within seconds; ten minutes means it is not running.
        "AwaitImages", await(Duration.ofMinutes(10)),
        "WorkloadsOn", QUICK,
        "ObserveHealth", call(Duration.ofSeconds(30), Duration.ofMinutes(2)),
        "Frozen", QUICK,
        // Returns after its own wait (the request's, under a minute), so one attempt is bounded by a minute.
        "AwaitClosed", heartbeating(call(Duration.ofMinutes(1), Duration.ofMinutes(5))),
        "OffTarget", QUICK,
        "Release", CLEANUP);
  }

  /**
   * The receive is one SQS long poll of at most 20 s: a single blocking call cannot heartbeat, so instead its
   * StartToClose (45 s) is short enough that a lost worker is noticed within it; what it had received becomes visible
   * again after the queue's visibility timeout. Retries are bounded so the workflow sees a broken queue and backs off.
   */
  public static Map<String, ActivityOptions> interruptionOptions() {
    return Map.of(
        "Receive", call(Duration.ofSeconds(45), Duration.ofMinutes(3)),
        "Resolve", QUICK,
        // Best effort: a missed mark costs one launch attempt on the offering that was just taken back.
        "MarkUnavailable", call(Duration.ofSeconds(10), Duration.ofMinutes(1)),
        "MarkRebalanceRecommended", QUICK,
        "DeleteMessages", call(Duration.ofSeconds(30), Duration.ofMinutes(2)));
  }

  private static ActivityOptions call(Duration startToClose, Duration scheduleToClose) {
    return ActivityOptions.newBuilder()
        .setStartToCloseTimeout(startToClose)
        .setScheduleToCloseTimeout(scheduleToClose)
        .setRetryOptions(RETRY)
        .build();
  }

  /** A wait that heartbeats: one attempt may last the whole bound; a lost worker is retried within it. */
  private static ActivityOptions await(Duration bound) {
    return heartbeating(call(bound, bound));
  }

  private static ActivityOptions heartbeating(ActivityOptions options) {
    return ActivityOptions.newBuilder(options).setHeartbeatTimeout(AWAIT_HEARTBEAT).build();
  }
}
