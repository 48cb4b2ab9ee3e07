package dev.farrier.workflows.testing;

import dev.farrier.workflows.activities.ClaimRolloutRequest;
import dev.farrier.workflows.activities.ClosedReplacement;
import dev.farrier.workflows.activities.FollowRequest;
import dev.farrier.workflows.activities.HealthObservation;
import dev.farrier.workflows.activities.HealthRequest;
import dev.farrier.workflows.activities.OffTargetNode;
import dev.farrier.workflows.activities.TargetCheckRequest;
import dev.farrier.workflows.activities.ReleaseRolloutRequest;
import dev.farrier.workflows.activities.RolloutActivities;
import dev.farrier.workflows.activities.RolloutClaim;
import dev.farrier.workflows.activities.SwitchImagesRequest;
import dev.farrier.model.WorkloadRef;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.model.AmiTerm;
import java.util.List;
import java.util.function.Function;

/**
 * A hand-written RolloutActivities: claims the NodePools named (or {@code default} for a class), switches images at
 * once, finds one workload per node and reports everything healthy unless a test scripts {@link #onObserveHealth}.
 * Every call is journaled ({@code claim}, {@code switchImages forward|back}, {@code release}, ...).
 */
public class FakeRolloutActivities implements RolloutActivities {
  public static final List<AmiTerm> OLD_TERMS = List.of(new AmiTerm("al2023@v20251020", null, null, null, null));
  public static final ReconcilerSettings SETTINGS = ReconcilerSettings.DEFAULTS;

  private final CallJournal journal;
  private volatile Function<ClaimRolloutRequest, RolloutClaim> claim = FakeRolloutActivities::claimed;
  private volatile Function<HealthRequest, HealthObservation> observeHealth = FakeRolloutActivities::healthy;
  private volatile String frozen;
  /** How many more times {@link #frozen} answers with the freeze before it is lifted; -1: until changed. */
  private volatile int frozenAnswers = -1;
  private volatile boolean failSwitchBack;
  /** How a replacement ended, once it has; set by {@link FarrierTestEnvironment} from its Temporal client. */
  private volatile Function<String, java.util.Optional<ClosedReplacement>> closed = claim -> java.util.Optional.empty();
  private volatile Function<TargetCheckRequest, List<OffTargetNode>> offTarget = r -> List.of();

  public FakeRolloutActivities(CallJournal journal) {
    this.journal = journal;
  }

  public static RolloutClaim claimed(ClaimRolloutRequest r) {
    List<String> pools = r.nodePools().isEmpty() ? List.of("default") : r.nodePools();
    return new RolloutClaim(pools, r.nodeClass() == null ? "default" : r.nodeClass(), OLD_TERMS, null, List.of("ami-old"),
        r.targetTerms(), null, List.of("ami-new"), SETTINGS);
  }

  /** Every node found and Ready, every moved pod Ready with no restarts. */
  public static HealthObservation healthy(HealthRequest r) {
    return new HealthObservation(r.nodes().stream().map(n -> new HealthObservation.NodeHealth(n, true, true)).toList(),
        r.workloads().stream().map(w -> new HealthObservation.PodHealth(w.namespace() + "/" + w.name() + "-pod", w, "node-x", true, 0, null)).toList());
  }

  public FakeRolloutActivities onClaim(Function<ClaimRolloutRequest, RolloutClaim> behaviour) {
    this.claim = behaviour;
    return this;
  }

  public FakeRolloutActivities onObserveHealth(Function<HealthRequest, HealthObservation> behaviour) {
    this.observeHealth = behaviour;
    return this;
  }

  @Override
  public RolloutClaim claim(ClaimRolloutRequest request) {
    journal.record("claim", request.workflowId());
    return claim.apply(request);
  }

  /** Switching back to the previous images fails for good (the class was deleted, the API server refuses it). */
  public FakeRolloutActivities failSwitchBack() {
    this.failSwitchBack = true;
    return this;
  }

  @Override
  public void switchImages(SwitchImagesRequest request) {
    journal.record("switchImages", request.forward() ? "forward" : "back", request.terms());
    if (failSwitchBack && !request.forward()) {
      throw io.temporal.failure.ApplicationFailure.newNonRetryableFailure("EC2NodeClass default is invalid", "InvalidRequest");
    }
  }

  @Override
  public void awaitImages(SwitchImagesRequest request) {
    journal.record("awaitImages", request.expectedImages());
  }

  /** One workload per node: ReplicaSet {@code web-<node>}. */
  static List<WorkloadRef> workloadsOf(List<String> nodes) {
    return nodes.stream().map(n -> new WorkloadRef("default", "ReplicaSet", "web-" + n)).toList();
  }

  @Override
  public HealthObservation observeHealth(HealthRequest request) {
    journal.record("observeHealth", request.nodes());
    return observeHealth.apply(request);
  }

  /** The freeze {@code frozen} answers with (null: none). */
  public FakeRolloutActivities freezeWith(String description) {
    this.frozen = description;
    this.frozenAnswers = -1;
    return this;
  }

  /** The freeze {@code frozen} answers with for its next {@code answers} calls, and then none: lifted. */
  public FakeRolloutActivities freezeFor(String description, int answers) {
    this.frozen = description;
    this.frozenAnswers = answers;
    return this;
  }

  /**
   * The change freeze holding these NodePools, as the worker's planning activity asks the reconciler for it in a
   * rollout's plan ({@link FakePlanningActivities#askingRolloutsOf}); journaled as {@code frozen <nodePools> <freeze>}.
   */
  public synchronized String frozen(List<String> nodePools) {
    if (frozenAnswers == 0) {
      frozen = null;
    } else if (frozenAnswers > 0) {
      frozenAnswers--;
    }
    journal.record("frozen", nodePools, frozen);
    return frozen;
  }

  public FakeRolloutActivities onClosed(Function<String, java.util.Optional<ClosedReplacement>> behaviour) {
    this.closed = behaviour;
    return this;
  }

  /**
   * As the worker's: the replacements that have closed, looked at every 20 ms of wall time (Temporal's test server does
   * not skip time while an activity runs) until one has or the request's wait has passed.
   */
  @Override
  public List<ClosedReplacement> awaitClosed(FollowRequest request) {
    journal.record("awaitClosed", request.nodeClaims());
    long deadline = System.nanoTime() + java.time.Duration.ofSeconds(request.waitSeconds()).toNanos();
    while (true) {
      List<ClosedReplacement> done = request.nodeClaims().stream().map(closed).flatMap(java.util.Optional::stream).toList();
      if (!done.isEmpty() || System.nanoTime() >= deadline) {
        return done;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /** What {@link #offTarget} answers (by default: every node on target). */
  public FakeRolloutActivities onOffTarget(Function<TargetCheckRequest, List<OffTargetNode>> behaviour) {
    this.offTarget = behaviour;
    return this;
  }

  @Override
  public List<OffTargetNode> offTarget(TargetCheckRequest request) {
    List<OffTargetNode> off = offTarget.apply(request);
    journal.record("offTarget", off.stream().map(OffTargetNode::nodeClaim).toList());
    return off;
  }

  @Override
  public void release(ReleaseRolloutRequest request) {
    journal.record("release", request.nodePools());
    if (request.nodeClass() == null) {
      journal.record("release keeps the nodeclass record");
    }
  }

  /** A pod of {@code workload} in {@code waitingReason} (null: Ready and running) with {@code restarts}. */
  public static HealthObservation.PodHealth pod(String key, WorkloadRef workload, boolean ready, int restarts, String waitingReason) {
    return new HealthObservation.PodHealth(key, workload, "node-x", ready, restarts, waitingReason);
  }

}
