package dev.farrier.workflows.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.CandidateDecision;
import dev.farrier.workflows.activities.HealthObservation;
import dev.farrier.model.RolloutBatch;
import dev.farrier.model.RolloutScope;
import dev.farrier.workflows.upgrade.AmiTarget;
import dev.farrier.workflows.upgrade.NodePoolUpgradeWorkflow;
import dev.farrier.workflows.upgrade.NodePoolUpgradeWorkflowImpl;
import dev.farrier.workflows.upgrade.RolloutPreviewWorkflow;
import dev.farrier.workflows.upgrade.UpgradeInput;
import dev.farrier.workflows.upgrade.UpgradeResult;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.workflows.provisioning.NodeLaunchInput;
import dev.farrier.workflows.provisioning.NodeLaunchWorkflow;
import dev.farrier.workflows.provisioning.ProvisioningInput;
import dev.farrier.workflows.provisioning.ProvisioningWorkflow;
import dev.farrier.workflows.reconciler.CarriedBatch;
import dev.farrier.workflows.reconciler.ClusterReconcilerWorkflow;
import dev.farrier.workflows.reconciler.PendingPods;
import dev.farrier.workflows.reconciler.ReconcilerInput;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.HeldPod;
import dev.farrier.workflows.activities.InterruptionKind;
import dev.farrier.workflows.activities.SurgeOutcome;
import dev.farrier.workflows.activities.ReceivedInterruptions;
import dev.farrier.workflows.interruption.InterruptionInput;
import dev.farrier.workflows.interruption.InterruptionWorkflow;
import dev.farrier.workflows.replacement.Interruption;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.OperatorRequest;
import dev.farrier.workflows.replacement.ReplacementInput;
import dev.farrier.model.ReplacementResult;
import dev.farrier.workflows.testing.Eventually;
import dev.farrier.workflows.testing.FakeInterruptionActivities;
import dev.farrier.workflows.testing.FakeNodeActivities;
import dev.farrier.workflows.testing.FakeNodeClaimActivities;
import dev.farrier.workflows.testing.FakePlanningActivities;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Writes the histories {@link WorkflowReplayTest} replays: a few representative runs of each workflow type, recorded
 * from today's code ({@link WorkflowReplayTest#HISTORIES} lists them). Not part of the build (its name matches no
 * surefire pattern); run it by hand, whole, after any change to what a workflow does, and commit the files it rewrote:
 *
 * <pre>./mvnw -B -ntp -o -q -pl workflows test -Dtest=HistoryRecorder -Dsurefire.failIfNoSpecifiedTests=false</pre>
 *
 * <p>Before the first release no history outside these tests exists, so the files are simply recorded again. After it,
 * the histories of the last release stay as they were written and are replayed too: see "Changing workflow code after
 * a release" in docs/ARCHITECTURE.md.
 */
class HistoryRecorder {
  static final Path DIR = Path.of("src/test/resources/histories");

  /** A launch that initializes: each step records its own Event. */
  @Test
  void recordLaunch() throws IOException {
    try (var test = new FarrierTestEnvironment().start()) {
      String id = WorkflowIds.launch("default-a");
      test.newWorkflow(NodeLaunchWorkflow.class, id)
          .launch(new NodeLaunchInput(Fixtures.CLUSTER, Fixtures.claim("default-a", "default"), Fixtures.LAUNCH));
      write(test, id, "NodeLaunchWorkflow");
    }
  }

  /**
   * A batch of two launches: the one that finds no capacity fails first (its saga rolls it back,
   * {@code NodeLaunchWorkflow-rolled-back}) and releases its pods to the running reconciler while the other still waits
   * for its node to initialize; the batch then tells the reconciler it closed.
   */
  @Test
  void recordProvisioning() throws IOException {
    try (var test = new FarrierTestEnvironment()) {
      planOneLaunchAndOneWithoutCapacity(test);
      AtomicInteger waits = new AtomicInteger();
      test.nodeClaims.onAwaitInitialized(r -> {
        if (waits.incrementAndGet() < 3) {
          throw ApplicationFailure.newFailure("not initialized yet", "NotInitialized");
        }
      });
      test.start();
      String reconcilerId = WorkflowIds.reconciler(Fixtures.CLUSTER);
      ClusterReconcilerWorkflow reconciler = test.newWorkflow(ClusterReconcilerWorkflow.class, reconcilerId);
      WorkflowClient.start(reconciler::run, new ReconcilerInput(Fixtures.CLUSTER,
          new ReconcilerSettings(60_000, 100_000, 3_600_000, Fixtures.LAUNCH, 2, 30), 1, List.of()));
      String id = WorkflowIds.provisioning(Fixtures.CLUSTER, 1);
      var result = test.newWorkflow(ProvisioningWorkflow.class, id)
          .provision(new ProvisioningInput(Fixtures.CLUSTER, id, List.of(Fixtures.pod("web-1")), Fixtures.LAUNCH));
      assertEquals(1, result.failed().size());
      assertTrue(test.client().fetchHistory(id).getHistory().getEventsList().stream()
          .filter(e -> e.hasSignalExternalWorkflowExecutionInitiatedEventAttributes())
          .anyMatch(e -> e.getSignalExternalWorkflowExecutionInitiatedEventAttributes().getSignalName()
              .equals(ProvisioningWorkflow.LAUNCHES_CLOSED_SIGNAL)), "the early launch's pods were released");
      write(test, id, "ProvisioningWorkflow");
      write(test, WorkflowIds.launch("default-nocap"), "NodeLaunchWorkflow-rolled-back");
      WorkflowStub.fromTyped(reconciler).terminate("history recorded");
    }
  }

  /**
   * A drain a PDB holds for two passes; the steps record their Events, the blocked drain's is one activity,
   * terminate-and-wait and the deletes one activity each.
   */
  @Test
  void recordReplacement() throws IOException {
    try (var test = new FarrierTestEnvironment()) {
      AtomicInteger passes = new AtomicInteger();
      List<String> pods = List.of("default/web-1", "default/web-2");
      test.nodes.onDrainStep(r -> passes.incrementAndGet() < 3
          ? FakeNodeActivities.blockedByPdb(pods, "default/web-pdb")
          : FakeNodeActivities.drained(pods));
      test.start();
      String id = WorkflowIds.disruption("default-old");
      var result = test.newWorkflow(NodeReplacementWorkflow.class, id)
          .replace(Fixtures.replacement(Fixtures.command("default-old", "replace", null)));
      assertEquals("Done", result.outcome());
      write(test, id, "NodeReplacementWorkflow");
    }
  }

  @Test
  void recordReconciler() throws IOException {
    try (var test = new FarrierTestEnvironment()) {
      var rounds = new AtomicInteger();
      test.planning.onPlanDisruption(r -> rounds.incrementAndGet() == 1
          ? new DisruptionPlan(0, List.of(Fixtures.command("default-empty", "delete", null)), List.of())
          : new DisruptionPlan(0, List.of(), List.of()));
      String id = WorkflowIds.reconciler(Fixtures.CLUSTER);
      ClusterReconcilerWorkflow reconciler = startReconciler(test, new ReconcilerSettings(60_000, 100_000, 120_000, Fixtures.LAUNCH, 2, 30));
      reconciler.podsPending(new PendingPods(List.of(Fixtures.pod("a"), Fixtures.pod("b"))));
      test.sleep(Duration.ofSeconds(30));
      reconciler.podsPending(new PendingPods(List.of(Fixtures.pod("c"))));
      test.sleep(Duration.ofSeconds(150));
      assertEquals(2, reconciler.status().nextBatch(), "one batch");
      assertEquals(1, reconciler.status().replacementsStarted().size(), "one replacement");
      assertEquals(2, rounds.get(), "the first round, and one a second after its replacement closed");
      // Recorded while running, as an entity's history is when a new worker version replays it; a terminated
      // history ends in an event the replayer does not expect after a completed task.
      write(test, id, "ClusterReconcilerWorkflow");
      WorkflowStub.fromTyped(reconciler).terminate("history recorded");
    }
  }

  /**
   * A round that disrupts three nodes (its three replacements asked for in one workflow task), the next round a second
   * after they closed, and a batch of pods before and after (pod a, offered again, comes after its batch closed).
   */
  @Test
  void recordReconcilerRounds() throws IOException {
    try (var test = new FarrierTestEnvironment()) {
      var rounds = new AtomicInteger();
      test.planning.onPlanDisruption(r -> rounds.incrementAndGet() == 1
          ? new DisruptionPlan(0, List.of(Fixtures.command("default-a", "delete", null),
              Fixtures.command("default-b", "delete", null), Fixtures.command("default-c", "delete", null)), List.of())
          : new DisruptionPlan(0, List.of(), List.of()));
      String id = WorkflowIds.reconciler(Fixtures.CLUSTER);
      ClusterReconcilerWorkflow reconciler = startReconciler(test, new ReconcilerSettings(30_000, 100_000, 60_000, Fixtures.LAUNCH, 2, 30));
      reconciler.podsPending(new PendingPods(List.of(Fixtures.pod("a"), Fixtures.pod("b"))));
      test.sleep(Duration.ofSeconds(90));
      reconciler.podsPending(new PendingPods(List.of(Fixtures.pod("c"), Fixtures.pod("a"))));
      test.sleep(Duration.ofSeconds(150));
      assertEquals(3, reconciler.status().replacementsStarted().size(), "one round of three replacements");
      assertTrue(rounds.get() >= 3, "rounds after the first: " + rounds.get());
      write(test, id, "ClusterReconcilerWorkflow-rounds");
      WorkflowStub.fromTyped(reconciler).terminate("history recorded");
    }
  }

  /**
   * A round's replacement tells the reconciler it closed (counted from its result, the signal ignored), and so does one
   * started by hand, whose close brings a round forward.
   */
  @Test
  void recordReplacementsTellingTheirReconciler() throws IOException {
    try (var test = new FarrierTestEnvironment()) {
      var rounds = new AtomicInteger();
      test.planning.onPlanDisruption(r -> rounds.incrementAndGet() == 1
          ? new DisruptionPlan(0, List.of(Fixtures.command("default-a", "delete", null)), List.of())
          : new DisruptionPlan(0, List.of(), List.of()));
      String id = WorkflowIds.reconciler(Fixtures.CLUSTER);
      ClusterReconcilerWorkflow reconciler = startReconciler(test, new ReconcilerSettings(30_000, 100_000, 60_000, Fixtures.LAUNCH, 2, 30));
      test.sleep(Duration.ofSeconds(90));
      String byHand = WorkflowIds.disruption("default-b");
      var result = test.newWorkflow(NodeReplacementWorkflow.class, byHand)
          .replace(Fixtures.replacement(Fixtures.command("default-b", "delete", null)));
      assertEquals("Done", result.outcome());
      test.sleep(Duration.ofSeconds(20));
      assertEquals(3, rounds.get(), "the first round, one after its replacement closed, one after the other's");
      write(test, id, "ClusterReconcilerWorkflow-replacement-started-by-hand");
      WorkflowStub.fromTyped(reconciler).terminate("history recorded");
    }
  }

  @Test
  void recordInterruption() throws IOException {
    try (var test = new FarrierTestEnvironment()) {
      test.interruption.notFarriers.add("i-foreign");
      test.interruption.deliver(new ReceivedInterruptions(List.of(
          FakeInterruptionActivities.notice(InterruptionKind.SpotInterruption, "default-spot"),
          FakeInterruptionActivities.notice(InterruptionKind.RebalanceRecommendation, "default-spot2"),
          FakeInterruptionActivities.notice(InterruptionKind.SpotInterruption, "foreign")), 1, 0));
      test.start();
      String queue = "farrier-interruption";
      String id = WorkflowIds.interruption(queue);
      WorkflowClient.start(test.newWorkflow(InterruptionWorkflow.class, id)::run,
          new InterruptionInput(Fixtures.CLUSTER, queue, ReconcilerSettings.DEFAULTS));
      Eventually.await("the batch handled", () -> test.journal.countStartingWith("deleteMessages"), n -> n > 0);
      test.client().newUntypedWorkflowStub(WorkflowIds.disruption("default-spot")).getResult(ReplacementResult.class);
      // Running, as an entity's history is when a new worker version replays it (see recordReconciler).
      write(test, id, "InterruptionWorkflow");
      WorkflowStub.fromTyped(test.existing(InterruptionWorkflow.class, id)).terminate("history recorded");
    }
  }

  @Test
  void recordInterruptedReplacement() throws IOException {
    try (var test = new FarrierTestEnvironment()) {
      test.start();
      String id = WorkflowIds.disruption("default-spot");
      var command = Fixtures.command("default-spot", "replace", null);
      var result = test.newWorkflow(NodeReplacementWorkflow.class, id).replace(new ReplacementInput(Fixtures.CLUSTER, command,
          Fixtures.LAUNCH, 2, 30, new Interruption("SpotInterruption", "instance-action terminate")));
      assertEquals("Done", result.outcome());
      write(test, id, "NodeReplacementWorkflow-interrupted");
    }
  }

  /** A failed launch held for Retry, then a drain a PDB holds, forced: both by an operator's Updates. */
  @Test
  void recordReplacementSteeredByAnOperator() throws IOException {
    try (var test = new FarrierTestEnvironment()) {
      AtomicInteger launches = new AtomicInteger();
      test.nodeClaims.onLaunchInstance(ref -> {
        if (launches.incrementAndGet() == 1) {
          throw ApplicationFailure.newNonRetryableFailure("no capacity", "InsufficientCapacity");
        }
        return FakeNodeClaimActivities.launched(ref);
      });
      List<String> pods = List.of("default/web-1", "default/web-2");
      test.nodes.onDrainStep(r -> r.bypassPdb() ? FakeNodeActivities.drained(pods)
          : FakeNodeActivities.blockedByPdb(pods, "default/web-pdb"));
      test.start();
      String id = WorkflowIds.disruption("default-steered");
      var workflow = test.newWorkflow(NodeReplacementWorkflow.class, id);
      WorkflowClient.start(workflow::replace, Fixtures.replacement(Fixtures.command("default-steered", "replace", null)));
      var running = test.existing(NodeReplacementWorkflow.class, id);
      Eventually.await("waiting for a retry", running::progress, p -> p.phase().equals("AwaitingRetry"));
      running.retryReplacement(OperatorRequest.of("capacity is back"));
      Eventually.await("blocked by the PDB", running::progress, p -> p.blocker() != null && p.phase().equals("Draining"));
      running.forceDrain(new OperatorRequest("maintenance window ends", "alice"));
      assertEquals("Done", WorkflowStub.fromTyped(workflow).getResult(ReplacementResult.class).outcome());
      write(test, id, "NodeReplacementWorkflow-operator");
    }
  }

  /**
   * A single-replica pod held by its PDB and opted in to surges: the surge refused at first (the Deployment not
   * settled), then started, in flight for a pass, and the drain done once the Deployment controller removed the old pod.
   */
  @Test
  void recordSurgedReplacement() throws IOException {
    try (var test = new FarrierTestEnvironment()) {
      String pod = "default/web-1";
      AtomicInteger passes = new AtomicInteger();
      test.nodes.onDrainStep(r -> passes.incrementAndGet() < 4
          ? DrainStatus.of(List.of(), List.of(pod), List.of(new HeldPod(pod, HeldPod.Cause.PDB, "default/web-pdb")), null,
              List.of(), List.of(pod))
          : FakeNodeActivities.drained(List.of()));
      test.nodes.onSurge(r -> switch (passes.get()) {
        case 1 -> new SurgeOutcome(r.pod(), "default/web", SurgeOutcome.Result.REFUSED,
            "the Deployment is not settled, a rollout may be in progress: one at a time");
        case 2 -> new SurgeOutcome(r.pod(), "default/web", SurgeOutcome.Result.STARTED, null);
        default -> new SurgeOutcome(r.pod(), "default/web", SurgeOutcome.Result.SURGING, null);
      });
      test.start();
      String id = WorkflowIds.disruption("default-surged");
      var result = test.newWorkflow(NodeReplacementWorkflow.class, id)
          .replace(Fixtures.replacement(Fixtures.command("default-surged", "replace", null)));
      assertEquals("Done", result.outcome());
      assertEquals(3, test.nodes.surgeRequests().size());
      write(test, id, "NodeReplacementWorkflow-surged");
    }
  }

  /** A forceful expiry drains while its replacement launches; a PDB holds until the terminationGracePeriod ends. */
  @Test
  void recordForcefulExpiry() throws IOException {
    try (var test = new FarrierTestEnvironment()) {
      List<String> pods = List.of("default/web-1", "default/web-2");
      test.nodes.onDrainStep(r -> r.bypassPdb() ? FakeNodeActivities.drained(pods)
          : FakeNodeActivities.blockedByPdb(pods, "default/web-pdb"));
      test.start();
      String id = WorkflowIds.disruption("default-expired");
      var result = test.newWorkflow(NodeReplacementWorkflow.class, id)
          .replace(Fixtures.replacement(Fixtures.expired("default-expired", "replace", 30L, true)));
      assertEquals("Done", result.outcome());
      write(test, id, "NodeReplacementWorkflow-expired");
    }
  }

  /**
   * A run started by signal-with-start with a batch carried from the run before: a pod of that batch and a new one are
   * signalled in the first workflow task, then the carried batch closes. The run takes over the carried state first, so
   * the new pod goes alone, and the carried one with the next pod after its batch closed.
   */
  @Test
  void recordReconcilerSignalledAtStart() throws IOException {
    try (var test = new FarrierTestEnvironment().start()) {
      String id = WorkflowIds.reconciler(Fixtures.CLUSTER);
      String carried = WorkflowIds.provisioning(Fixtures.CLUSTER, 7);
      var settings = new ReconcilerSettings(60_000, 100_000, 3_600_000, Fixtures.LAUNCH, 2, 30);
      ClusterReconcilerWorkflow workflow = test.newWorkflow(ClusterReconcilerWorkflow.class, id);
      var request = test.client().newSignalWithStartRequest();
      request.add(workflow::run, new ReconcilerInput(Fixtures.CLUSTER, settings, 8, List.of(),
          List.of(new CarriedBatch(carried, List.of("uid-a"), test.env.currentTimeMillis() + Duration.ofHours(1).toMillis())),
          List.of(), List.of()));
      request.add(workflow::podsPending, new PendingPods(List.of(Fixtures.pod("a"), Fixtures.pod("b"))));
      test.client().signalWithStart(request);
      test.sleep(Duration.ofSeconds(90));
      test.newWorkflow(ProvisioningWorkflow.class, carried).provision(new ProvisioningInput(Fixtures.CLUSTER, carried, List.of(), null));
      test.sleep(Duration.ofSeconds(30));
      test.existing(ClusterReconcilerWorkflow.class, id).podsPending(new PendingPods(List.of(Fixtures.pod("c"))));
      test.sleep(Duration.ofSeconds(200));
      write(test, id, "ClusterReconcilerWorkflow-signalled-at-start");
      WorkflowStub.fromTyped(workflow).terminate("history recorded");
    }
  }

  /**
   * A rolling rollout of four drifted nodes with three slots, at most two replacements at a time (the planner holds
   * the rest: the first waiting node and how many wait), a 30 s soak. default-3's moved
   * pods stay not Ready, then crash-loop at its gate's sixth look, while default-4's gate is in its soak: the rollout
   * stops (default-4's gate sees it at its next look) and everything launched is rolled back. Each plan answers the
   * freeze, the plan and the old nodes' workloads in one activity.
   */
  @Test
  void recordRollingRollout() throws IOException {
    try (var test = new FarrierTestEnvironment()) {
      List<String> fleet = new ArrayList<>(List.of("default-1", "default-2", "default-3", "default-4"));
      Set<String> rolledBack = new HashSet<>();
      test.planning.onPlanRollout(r -> {
        RolloutScope scope = r.rollout();
        if (!scope.onlyClaims().isEmpty()) {
          return FakePlanningActivities.rollbackBatch(scope, rolledBack);
        }
        synchronized (fleet) {
          int remaining = fleet.size() + scope.inFlight().size();
          int room = Math.max(0, Math.min(scope.max(), 2 - scope.inFlight().size()));
          List<String> take = new ArrayList<>(fleet.subList(0, Math.min(room, fleet.size())));
          fleet.removeAll(take);
          List<CandidateDecision> held = fleet.stream()
              .map(c -> new CandidateDecision(c, "node-" + c, "default", false, "drifted but budget exhausted")).toList();
          return new RolloutBatch(take.stream().map(c -> Fixtures.command(c, "replace", null)).toList(), remaining,
              held.isEmpty() ? List.of() : List.of(held.getFirst()), held.size());
        }
      });
      AtomicInteger looksAtThird = new AtomicInteger();
      test.rollout.onObserveHealth(r -> {
        boolean third = r.workloads().stream().anyMatch(w -> w.name().equals("web-" + FakeNodeClaimActivities.nodeNameOf("default-3")));
        boolean broken = third && looksAtThird.incrementAndGet() >= 6;
        return new HealthObservation(r.nodes().stream().map(n -> new HealthObservation.NodeHealth(n, true, true)).toList(),
            r.workloads().stream().map(w -> new HealthObservation.PodHealth(w.namespace() + "/" + w.name() + "-pod", w,
                r.nodes().getFirst(), !third, broken ? 3 : 0, broken ? "CrashLoopBackOff" : null)).toList());
      });
      test.start();
      AmiTarget target = AmiTarget.parse("al2023@v20251103");
      String id = WorkflowIds.upgrade(List.of("default"), null, target.text());
      UpgradeResult result = test.newWorkflow(NodePoolUpgradeWorkflow.class, id).upgrade(new UpgradeInput(Fixtures.CLUSTER,
          List.of("default"), null, target, null, "3", 1, 30, 300, false, 0, true, "ci-job-42", null));
      assertEquals(UpgradeResult.FAILED, result.outcome());
      assertTrue(result.cause().startsWith("gate of default-3's replacement"), result.cause());
      write(test, id, "NodePoolUpgradeWorkflow-rolling");
    }
  }

  /**
   * A rolling rollout of {@code MAX_STARTS_PER_RUN} + 11 nodes with ten slots continues as new after
   * {@code MAX_STARTS_PER_RUN} starts with its slots in flight. The drain of the first run's last start is held (a PDB)
   * until the second run has planned, so that run follows its replacement to its end, and ends Succeeded once the fleet
   * is on target. Writes the second run; the first, several MB, is replayed by {@code NodePoolUpgradeWorkflowTest}
   * instead.
   */
  @Test
  void recordRollingHandOver() throws IOException {
    try (var test = new FarrierTestEnvironment()) {
      int nodes = NodePoolUpgradeWorkflowImpl.MAX_STARTS_PER_RUN + 11;
      List<String> fleet = new ArrayList<>();
      for (int i = 1; i <= nodes; i++) {
        fleet.add("default-" + i);
      }
      Set<String> runs = java.util.concurrent.ConcurrentHashMap.newKeySet();
      test.planning.onPlanRollout(r -> {
        runs.add(io.temporal.activity.Activity.getExecutionContext().getInfo().getRunId());
        synchronized (fleet) {
          int remaining = fleet.size();
          List<String> take = new ArrayList<>(fleet.subList(0, Math.min(r.rollout().max(), fleet.size())));
          fleet.removeAll(take);
          return new RolloutBatch(take.stream().map(c -> Fixtures.command(c, "replace", null)).toList(), remaining, List.of());
        }
      });
      String held = FakeNodeClaimActivities.nodeNameOf("default-" + (NodePoolUpgradeWorkflowImpl.MAX_STARTS_PER_RUN + 1));
      test.nodes.onDrainStep(r -> r.nodeName().equals(held) && runs.size() < 2
          ? FakeNodeActivities.blockedByPdb(List.of("default/web-0"), "default/web-pdb") : FakeNodeActivities.drained(List.of()));
      test.start();
      AmiTarget target = AmiTarget.parse("al2023@v20251103");
      String id = WorkflowIds.upgrade(List.of("default"), null, target.text());
      UpgradeResult result = test.newWorkflow(NodePoolUpgradeWorkflow.class, id).upgrade(new UpgradeInput(Fixtures.CLUSTER,
          List.of("default"), null, target, null, "10", 1, 0, 30, false, 0, true, "ci-job-42", null));
      assertEquals(UpgradeResult.SUCCEEDED, result.outcome(), result.cause());
      assertEquals(2, runs.size(), runs.toString());
      write(test, id, "NodePoolUpgradeWorkflow-rolling-hand-over");
    }
  }

  /**
   * A rollout in batches of one NodePool of three nodes: the canary passes its gate, then an operator aborts the
   * rollout while a PodDisruptionBudget holds the drains of the next batch. The rollout passes the abort on to those
   * two replacements ({@code rolloutAborted}); they roll back and give their nodes back unmarked
   * ({@code NodeReplacementWorkflow-rollout-aborted}), and the rollout replaces the nodes it launched by nodes on the
   * previous images.
   */
  @Test
  void recordAbortedRollout() throws IOException {
    try (var test = new FarrierTestEnvironment()) {
      List<String> fleet = new ArrayList<>(List.of("default-1", "default-2", "default-3"));
      Set<String> rolledBack = java.util.concurrent.ConcurrentHashMap.newKeySet();
      test.planning.onPlanRollout(r -> {
        RolloutScope scope = r.rollout();
        if (!scope.onlyClaims().isEmpty()) {
          return FakePlanningActivities.rollbackBatch(scope, rolledBack);
        }
        synchronized (fleet) {
          int remaining = fleet.size();
          List<String> take = new ArrayList<>(fleet.subList(0, Math.min(scope.max(), fleet.size())));
          fleet.removeAll(take);
          return new RolloutBatch(take.stream().map(c -> Fixtures.command(c, "replace", null)).toList(), remaining, List.of());
        }
      });
      Set<String> held = Set.of(FakeNodeClaimActivities.nodeNameOf("default-2"), FakeNodeClaimActivities.nodeNameOf("default-3"));
      test.nodes.onDrainStep(r -> held.contains(r.nodeName())
          ? FakeNodeActivities.blockedByPdb(List.of("default/web-0"), "default/web-pdb") : FakeNodeActivities.drained(List.of()));
      test.start();
      AmiTarget target = AmiTarget.parse("al2023@v20251103");
      String id = WorkflowIds.upgrade(List.of("default"), null, target.text());
      NodePoolUpgradeWorkflow rollout = test.newWorkflow(NodePoolUpgradeWorkflow.class, id);
      WorkflowClient.start(rollout::upgrade, new UpgradeInput(Fixtures.CLUSTER, List.of("default"), null, target, null, "2", 1,
          0, 300, false, 0, false, "ci-job-42", null));
      var running = test.existing(NodePoolUpgradeWorkflow.class, id);
      String child = WorkflowIds.disruption("default-2");
      Eventually.await("the batch's drain held by the PDB", () -> running.progress().phase().equals("Batch")
          && test.journal.countStartingWith("drainStep " + FakeNodeClaimActivities.nodeNameOf("default-2")) > 0, held2 -> held2);
      running.abort(new OperatorRequest("error rate up", "carol"));
      UpgradeResult result = WorkflowStub.fromTyped(rollout).getResult(UpgradeResult.class);
      assertEquals(UpgradeResult.ABORTED, result.outcome(), result.cause());
      assertEquals("Aborted", test.client().newUntypedWorkflowStub(child).getResult(ReplacementResult.class).outcome());
      assertEquals(0, test.journal.countStartingWith("markAborted"), "a rollout's abort leaves no mark");
      write(test, id, "NodePoolUpgradeWorkflow-batches-aborted");
      write(test, child, "NodeReplacementWorkflow-rollout-aborted");
    }
  }

  /**
   * {@code farrier upgrade --dry-run} ({@code RolloutPreviewWorkflow}), and {@code farrier upgrade preview} on a rollout
   * waiting for its approval after the canary: the rollout answers what it has left as a query (nothing in its own
   * history), and the preview workflow runs on that answer ({@code RolloutPreviewWorkflow-running}).
   */
  @Test
  void recordPreviews() throws IOException {
    try (var test = new FarrierTestEnvironment()) {
      List<String> fleet = new ArrayList<>(List.of("default-1", "default-2", "default-3"));
      test.planning.onPlanRollout(r -> {
        synchronized (fleet) {
          int remaining = fleet.size();
          List<String> take = new ArrayList<>(fleet.subList(0, Math.min(r.rollout().max(), fleet.size())));
          fleet.removeAll(take);
          return new RolloutBatch(take.stream().map(c -> Fixtures.command(c, "replace", null)).toList(), remaining, List.of());
        }
      });
      test.start();
      AmiTarget target = AmiTarget.parse("al2023@v20251103");
      String id = WorkflowIds.upgrade(List.of("default"), null, target.text());
      UpgradeInput input = new UpgradeInput(Fixtures.CLUSTER, List.of("default"), null, target, null, "2", 1, 0, 300, true, 0,
          false, "ci-job-42", null);
      String previewId = WorkflowIds.preview(id) + "/recorded";
      test.newWorkflow(RolloutPreviewWorkflow.class, previewId).preview(input.previewRequest(id, null, null, null));
      write(test, previewId, "RolloutPreviewWorkflow");

      NodePoolUpgradeWorkflow rollout = test.newWorkflow(NodePoolUpgradeWorkflow.class, id);
      WorkflowClient.start(rollout::upgrade, input);
      var running = test.existing(NodePoolUpgradeWorkflow.class, id);
      Eventually.await("waiting for approval", running::progress, p -> p.phase().equals("AwaitingApproval"));
      String runningPreviewId = WorkflowIds.preview(id) + "/recorded-running";
      test.newWorkflow(RolloutPreviewWorkflow.class, runningPreviewId).preview(running.remaining().preview());
      write(test, runningPreviewId, "RolloutPreviewWorkflow-running");
      running.approve(new OperatorRequest("canary looks good", "alice"));
      UpgradeResult result = WorkflowStub.fromTyped(rollout).getResult(UpgradeResult.class);
      assertEquals(UpgradeResult.SUCCEEDED, result.outcome(), result.cause());
    }
  }

  /** A batch planned into two claims: default-ok launches, default-nocap finds no capacity. */
  private static void planOneLaunchAndOneWithoutCapacity(FarrierTestEnvironment test) {
      test.planning.onPlanProvisioning(r -> new ProvisioningPlan(
          List.of(Fixtures.claim("default-ok", "default"), Fixtures.claim("default-nocap", "default")), List.of()));
      test.nodeClaims.onLaunchInstance(ref -> {
        if (ref.nodeClaim().equals("default-nocap")) {
          throw ApplicationFailure.newNonRetryableFailure("no capacity", "InsufficientCapacity");
        }
        return FakeNodeClaimActivities.launched(ref);
      });
  }

  /** Starts the test environment and a reconciler with {@code settings}, as the worker does on a new cluster. */
  private static ClusterReconcilerWorkflow startReconciler(FarrierTestEnvironment test, ReconcilerSettings settings) {
    test.start();
    String id = WorkflowIds.reconciler(Fixtures.CLUSTER);
    WorkflowClient.start(test.newWorkflow(ClusterReconcilerWorkflow.class, id)::run,
        new ReconcilerInput(Fixtures.CLUSTER, settings, 1, List.of()));
    return test.existing(ClusterReconcilerWorkflow.class, id);
  }

  /** Writes (or writes again) the history of the workflow's last run as {@code name}. */
  private static void write(FarrierTestEnvironment test, String workflowId, String name) throws IOException {
    Files.createDirectories(DIR);
    Files.writeString(DIR.resolve(name + ".json"), test.client().fetchHistory(workflowId).toJson(true));
  }
}
