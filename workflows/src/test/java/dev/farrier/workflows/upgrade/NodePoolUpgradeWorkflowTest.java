package dev.farrier.workflows.upgrade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.workflows.activities.HealthObservation;
import dev.farrier.model.RolloutBatch;
import dev.farrier.workflows.activities.PreviewRolloutRequest;
import dev.farrier.model.RolloutScope;
import dev.farrier.model.WorkloadRef;
import dev.farrier.workflows.replacement.OperatorRequest;
import dev.farrier.workflows.testing.Eventually;
import dev.farrier.workflows.testing.FakeNodeClaimActivities;
import dev.farrier.workflows.testing.FakePlanningActivities;
import dev.farrier.workflows.testing.FakeRolloutActivities;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowUpdateException;
import io.temporal.failure.ApplicationFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rollout's paths in Temporal's time-skipping environment: real replacement children on fake activities, a fake
 * planner that hands out the drifted claims of a fleet batch by batch, and a scripted gate.
 */
class NodePoolUpgradeWorkflowTest {
  private static final AmiTarget TARGET = AmiTarget.parse("al2023@v20251103");
  private static final String ID = WorkflowIds.upgrade(List.of("default"), null, TARGET.text());

  private final FarrierTestEnvironment test = new FarrierTestEnvironment();
  /** The fleet's drifted claims not yet handed out, in order; handed-out ones are replaced by the time of the next plan. */
  private final List<String> drifted = new ArrayList<>();
  private final List<Integer> batchSizes = new ArrayList<>();
  private final Set<String> rolledBack = ConcurrentHashMap.newKeySet();
  /** Each forward plan's slots: what it may hand out plus what the rollout said it has in flight. */
  private final List<Integer> slotsAsked = new ArrayList<>();
  /** Each forward plan: the rollout's run that asked it, and the replacements it said it has in flight. */
  private final List<Plan> plansByRun = new java.util.concurrent.CopyOnWriteArrayList<>();

  private record Plan(String runId, List<String> inFlight) {}

  /** The forward plan (counting from 1) that fails past its retries, as when the API server refuses the lists; 0 for none. */
  private volatile int planFailing;

  @AfterEach
  void close() {
    test.close();
  }

  /** A fleet of {@code n} drifted nodes the fake planner hands out at most {@code max} at a time. */
  private void fleet(int n) {
    for (int i = 1; i <= n; i++) {
      drifted.add("default-" + i);
    }
    test.planning.onPlanRollout(request -> {
      RolloutScope scope = request.rollout();
      if (!scope.onlyClaims().isEmpty()) {
        return FakePlanningActivities.rollbackBatch(scope, rolledBack);
      }
      synchronized (drifted) {
        if (slotsAsked.size() + 1 == planFailing) {
          throw ApplicationFailure.newNonRetryableFailure("listing NodeClaims: the API server refused", "KubernetesApiError");
        }
        slotsAsked.add(scope.max() + scope.inFlight().size());
        plansByRun.add(new Plan(io.temporal.activity.Activity.getExecutionContext().getInfo().getRunId(), scope.inFlight()));
        int remaining = drifted.size();
        List<String> take = new ArrayList<>(drifted.subList(0, Math.min(scope.max(), drifted.size())));
        drifted.removeAll(take);
        if (!take.isEmpty()) {
          batchSizes.add(take.size());
        }
        return new RolloutBatch(take.stream().map(NodePoolUpgradeWorkflowTest::drift).toList(), remaining, List.of());
      }
    });
  }

  private static DisruptionCommand drift(String claim) {
    return Fixtures.command(claim, "replace", null);
  }

  /**
   * A rollout of NodePool {@code default}; one that waits for approval has no soak, so a test that watches it in real
   * time (time skips only while a test waits for the result) reaches AwaitingApproval at once.
   */
  private static UpgradeInput input(int canary, String batchSize, boolean approval, int maxFailures) {
    return new UpgradeInput(Fixtures.CLUSTER, List.of("default"), null, TARGET, null, batchSize, canary, approval ? 0 : 60, 300,
        approval, maxFailures, false, "ci-job-42", null);
  }

  /**
   * As {@link #input}, after the canary rolling with up to {@code batchSize} in flight, each gated on its own; no soak
   * and a gate timeout of 30 s, so that no test waits long in simulated time: the time-skipping test server was seen
   * to let such waits run at the wall clock's pace now and then once children had completed.
   */
  private static UpgradeInput rolling(String batchSize, int maxFailures) {
    return new UpgradeInput(Fixtures.CLUSTER, List.of("default"), null, TARGET, null, batchSize, 1, 0, GATE_TIMEOUT_ROLLING,
        false, maxFailures, true, "ci-job-42", null);
  }

  private static final int GATE_TIMEOUT_ROLLING = 30;

  private static UpgradeInput rolling(String batchSize, long soakSeconds) {
    return new UpgradeInput(Fixtures.CLUSTER, List.of("default"), null, TARGET, null, batchSize, 1, soakSeconds,
        GATE_TIMEOUT_ROLLING, false, 0, true, "ci-job-42", null);
  }

  /** A pod of {@code w} on the gate's new node (its first), as a moved pod is once its replacement has room for it. */
  private static HealthObservation.PodHealth onNewNode(dev.farrier.workflows.activities.HealthRequest r, WorkloadRef w,
      boolean ready, int restarts, String waitingReason) {
    return new HealthObservation.PodHealth(w.namespace() + "/" + w.name() + "-pod", w, r.nodes().isEmpty() ? "node-x" : r.nodes().getFirst(),
        ready, restarts, waitingReason);
  }

  private static List<HealthObservation.NodeHealth> ready(dev.farrier.workflows.activities.HealthRequest r) {
    return r.nodes().stream().map(n -> new HealthObservation.NodeHealth(n, true, true)).toList();
  }

  /** The {@code nth} new node (counting from 1) never registers; the others do. */
  private void failRegistration(int nth) {
    var calls = new java.util.concurrent.atomic.AtomicInteger();
    test.nodeClaims.onAwaitRegistered(r -> {
      if (calls.incrementAndGet() == nth) {
        throw ApplicationFailure.newNonRetryableFailure("node did not register", FailureTypes.REGISTRATION_TIMEOUT);
      }
      return FakeNodeClaimActivities.nodeNameOf(r.nodeClaim());
    });
  }

  /** Whether a gate's request watches the pods moved off the old node of {@code claim}. */
  private static boolean movedFrom(dev.farrier.workflows.activities.HealthRequest r, String claim) {
    return r.workloads().stream().anyMatch(w -> w.name().equals("web-" + FakeNodeClaimActivities.nodeNameOf(claim)));
  }

  private NodePoolUpgradeWorkflow start(UpgradeInput input) {
    test.start();
    NodePoolUpgradeWorkflow workflow = test.newWorkflow(NodePoolUpgradeWorkflow.class, ID);
    WorkflowClient.start(workflow::upgrade, input);
    return test.existing(NodePoolUpgradeWorkflow.class, ID);
  }

  private UpgradeResult result() {
    return test.client().newUntypedWorkflowStub(ID).getResult(UpgradeResult.class);
  }

  private UpgradeResult run(UpgradeInput input) {
    start(input);
    return result();
  }

  @Test
  void aGoodRolloutReplacesTheCanaryThenBatchesAndGivesTheNodePoolsBack() {
    fleet(5);
    List<dev.farrier.workflows.activities.HealthRequest> gates = new java.util.concurrent.CopyOnWriteArrayList<>();
    test.rollout.onObserveHealth(r -> {
      gates.add(r);
      return FakeRolloutActivities.healthy(r);
    });
    UpgradeResult result = run(input(1, "2", false, 0));

    assertEquals(UpgradeResult.SUCCEEDED, result.outcome(), result.cause());
    assertEquals(List.of(1, 2, 2), batchSizes);
    assertEquals(5, result.replaced());
    assertEquals(5, result.total());
    assertEquals(3, result.batches());
    assertEquals(List.of("ami-new"), result.targetImages());
    List<String> steps = test.journal.steps();
    assertTrue(test.journal.indexOf("awaitImages [ami-new]") < test.journal.indexOf("planRollout max=1"), steps.toString());
    assertEquals(1, test.journal.count("switchImages forward " + TARGET.terms()));
    assertEquals(0, test.journal.countStartingWith("switchImages back"));
    // Each batch's plan named what runs on its old nodes (no activity of their own), and its gate watched those pods.
    assertEquals(0, test.journal.countStartingWith("workloadsOn"));
    assertTrue(java.util.stream.IntStream.rangeClosed(1, 5).allMatch(i -> gates.stream().anyMatch(r -> movedFrom(r, "default-" + i))),
        gates.toString());
    assertEquals("release [default]", steps.getLast());
    // Every batch passed its gate (ready, then watched through the soak) before the next one was planned.
    assertTrue(test.journal.countStartingWith("observeHealth") >= 3 * 2, test.journal.all().toString());
  }

  @Test
  void aBatchAsksForAllItsReplacementsInOneWorkflowTaskNotOneStartAfterTheOther() {
    fleet(7);
    UpgradeResult result = run(input(1, "3", false, 0));
    assertEquals(UpgradeResult.SUCCEEDED, result.outcome(), result.cause());
    assertEquals(List.of(1, 3, 3), batchSizes);

    var starts = test.client().fetchHistory(ID).getHistory().getEventsList().stream()
        .filter(io.temporal.api.history.v1.HistoryEvent::hasStartChildWorkflowExecutionInitiatedEventAttributes)
        .map(io.temporal.api.history.v1.HistoryEvent::getStartChildWorkflowExecutionInitiatedEventAttributes)
        .filter(a -> a.getWorkflowId().startsWith("disrupt/"))
        .toList();
    assertEquals(7, starts.size());
    // One start after the other took a workflow task round trip each: about 20 s to start a batch of 50 on a busy worker.
    assertEquals(3, starts.stream().map(a -> a.getWorkflowTaskCompletedEventId()).distinct().count(),
        "each batch's replacements asked for by one workflow task: " + starts.stream().map(a -> a.getWorkflowTaskCompletedEventId()).toList());
  }

  /**
   * With {@code --rolling} a replacement whose gate is slow holds only its own slot: default-2's moved pod is Ready only
   * once the planner has handed out the whole fleet. In batches of three it would hold default-3 and default-4's
   * batch, and so every later one, until its gate timed out.
   */
  @Test
  void rollingASlowGateHoldsOnlyItsOwnSlotWhileTheOthersRollOn() throws Exception {
    fleet(7);
    List<dev.farrier.workflows.activities.HealthRequest> gates = new java.util.concurrent.CopyOnWriteArrayList<>();
    test.rollout.onObserveHealth(r -> {
      gates.add(r);
      boolean waiting = movedFrom(r, "default-2") && !slotsAsked.isEmpty() && !handedOutAll();
      return new HealthObservation(ready(r), r.workloads().stream().map(w -> onNewNode(r, w, !waiting, 0, null)).toList());
    });

    UpgradeResult result = run(rolling("3", 0));

    assertEquals(UpgradeResult.SUCCEEDED, result.outcome(), result.cause());
    assertEquals(7, result.replaced());
    assertEquals(7, batchSizes.stream().mapToInt(Integer::intValue).sum(), batchSizes.toString());
    assertTrue(batchSizes.size() > 3, "slots refilled one by one, not in batches of three: " + batchSizes);
    // Never more than a batch in flight: each plan may hand out only the slots the rollout has free.
    assertTrue(slotsAsked.stream().allMatch(n -> n <= 3), slotsAsked.toString());
    // Every replacement passed a gate of its own, watching its one new node (and the pods moved off its old one).
    assertEquals(0, test.journal.countStartingWith("workloadsOn"), "each plan named what runs on the old nodes");
    assertTrue(java.util.stream.IntStream.rangeClosed(1, 7).allMatch(i -> gates.stream().filter(r -> movedFrom(r, "default-" + i))
        .allMatch(r -> r.workloads().size() == 1) && gates.stream().anyMatch(r -> movedFrom(r, "default-" + i))),
        "each gate watched the pods moved off its own node: " + gates);
    assertTrue(test.journal.all().stream().filter(c -> c.startsWith("observeHealth")).allMatch(c -> !c.contains(",")),
        test.journal.all().toString());
    io.temporal.testing.WorkflowReplayer.replayWorkflowExecution(test.client().fetchHistory(ID), NodePoolUpgradeWorkflowImpl.class);
  }

  /**
   * A rolling rollout continues as new (after {@link NodePoolUpgradeWorkflowImpl#MAX_STARTS_PER_RUN} starts here; on a
   * real server also when Temporal suggests it) with its slots in flight: the next run's first plan counts them, the
   * replacements still running are followed to their end, and each node is replaced once. Before, the window drained
   * to empty first: in a 500-node roll, idle slots for about one replacement's time at each hand-over.
   */
  @Test
  void rollingContinuesAsNewWithItsSlotsInFlightInsteadOfDrainingThem() throws Exception {
    int nodes = NodePoolUpgradeWorkflowImpl.MAX_STARTS_PER_RUN + 11;
    fleet(nodes);
    drainHeldUntilHandedOver(lastStartOfFirstRun());

    UpgradeResult result = run(rolling("10", 0));

    assertEquals(UpgradeResult.SUCCEEDED, result.outcome(), result.cause());
    assertEquals(nodes, result.replaced());
    assertEquals(0, result.failures());
    assertEquals(nodes, batchSizes.stream().mapToInt(Integer::intValue).sum(), "each node handed out once: " + batchSizes);
    List<String> runs = plansByRun.stream().map(Plan::runId).distinct().toList();
    assertTrue(runs.size() >= 2, "a hand-over after " + NodePoolUpgradeWorkflowImpl.MAX_STARTS_PER_RUN + " starts at the latest: " + runs);
    Plan firstOfSecondRun = plansByRun.stream().filter(p -> p.runId().equals(runs.get(1))).findFirst().orElseThrow();
    assertFalse(firstOfSecondRun.inFlight().isEmpty(), "the second run began with the first run's slots in flight");
    assertTrue(test.journal.countStartingWith("awaitClosed") > 0, "the carried replacements still running were followed");
    // Both runs replay: the first with its marker and the hand-over, the second with the carried slots.
    var second = test.client().fetchHistory(ID);
    String firstRunId = second.getHistory().getEvents(0).getWorkflowExecutionStartedEventAttributes().getFirstExecutionRunId();
    io.temporal.testing.WorkflowReplayer.replayWorkflowExecution(test.client().fetchHistory(ID, firstRunId),
        NodePoolUpgradeWorkflowImpl.class);
    io.temporal.testing.WorkflowReplayer.replayWorkflowExecution(second, NodePoolUpgradeWorkflowImpl.class);
  }

  /**
   * A carried replacement that ends without its result (terminated by hand, here as the follow reports it) counts as a
   * failed replacement in the run that took it over: with no failures allowed, the rollout stops and rolls back.
   */
  @Test
  void rollingACarriedReplacementThatEndsWithoutAResultCountsAsFailed() {
    fleet(NodePoolUpgradeWorkflowImpl.MAX_STARTS_PER_RUN + 11);
    drainHeldUntilHandedOver(lastStartOfFirstRun());
    test.rollout.onClosed(claim -> java.util.Optional.of(
        dev.farrier.workflows.activities.ClosedReplacement.failed(claim, "disrupt/" + claim + " terminated by hand")));

    UpgradeResult result = run(rolling("10", 0));

    assertEquals(UpgradeResult.FAILED, result.outcome());
    assertTrue(result.cause().contains("failed: disrupt/default-") && result.cause().contains("terminated by hand"), result.cause());
    // Every carried replacement the follow reported is a failure, the held one at least.
    assertTrue(result.failures() >= 1, "failures " + result.failures());
    assertTrue(result.rolledBack() > 0, "the nodes it launched were replaced back");
    assertEquals("release [default]", test.journal.steps().getLast());
  }

  /** The claim the first run's last start replaces: the canary, then {@code MAX_STARTS_PER_RUN} rolling starts. */
  private static String lastStartOfFirstRun() {
    return "default-" + (NodePoolUpgradeWorkflowImpl.MAX_STARTS_PER_RUN + 1);
  }

  /**
   * The drain of {@code claim}'s old node is held by a PDB until the rollout's second run has planned, so its
   * replacement is certainly running when the first run hands over.
   */
  private void drainHeldUntilHandedOver(String claim) {
    String node = FakeNodeClaimActivities.nodeNameOf(claim);
    // At most 20 s of wall time, so that a rollout that never hands over fails the test's checks instead of hanging.
    var heldSince = new java.util.concurrent.atomic.AtomicLong();
    test.nodes.onDrainStep(r -> {
      boolean held = r.nodeName().equals(node) && plansByRun.stream().map(Plan::runId).distinct().count() < 2
          && (heldSince.compareAndSet(0, System.nanoTime()) || System.nanoTime() - heldSince.get() < 20_000_000_000L);
      return held ? dev.farrier.workflows.testing.FakeNodeActivities.blockedByPdb(List.of("default/web-0"), "default/web-pdb")
          : dev.farrier.workflows.testing.FakeNodeActivities.drained(List.of());
    });
  }

  private boolean handedOutAll() {
    synchronized (drifted) {
      return drifted.isEmpty();
    }
  }

  /**
   * A failed gate stops a rolling rollout: nothing more is started, the replacements in flight finish, and every node
   * the rollout launched (theirs too) is rolled back.
   */
  @Test
  void rollingAFailedGateStopsNewStartsAndRollsBackEveryNodeLaunchedIncludingThoseInFlight() {
    fleet(8);
    test.rollout.onObserveHealth(r -> new HealthObservation(
        r.nodes().stream().map(n -> new HealthObservation.NodeHealth(n, true, true)).toList(),
        r.workloads().stream().map(w -> FakeRolloutActivities.pod(w.namespace() + "/" + w.name() + "-pod", w,
            !movedFrom(r, "default-3"), movedFrom(r, "default-3") ? 3 : 0, movedFrom(r, "default-3") ? "CrashLoopBackOff" : null)).toList()));

    UpgradeResult result = run(rolling("2", 0));

    assertEquals(UpgradeResult.FAILED, result.outcome());
    assertTrue(result.cause().startsWith("gate of default-3's replacement"), result.cause());
    assertTrue(result.cause().contains("CrashLoopBackOff"), result.cause());
    int handedOut = batchSizes.stream().mapToInt(Integer::intValue).sum();
    assertTrue(handedOut < 8, "no old node past the failure was touched: " + batchSizes);
    assertEquals(handedOut, result.rolledBack(), "every node it launched was replaced back: " + batchSizes);
    assertEquals("release [default]", test.journal.steps().getLast());
  }

  /**
   * One Deployment across the fleet: while a rolling rollout runs, some of its pods are always moving for another
   * replacement. A replacement's gate waits for its own new node's pods, not for those; batch by batch, the gate after
   * the canary waits for the whole workload, as before.
   */
  @Test
  void rollingAGateDoesNotWaitForPodsOfTheSameWorkloadMovingForAnotherReplacement() {
    fleet(5);
    WorkloadRef web = new WorkloadRef("default", "ReplicaSet", "web");
    test.rollout.onObserveHealth(r -> {
      List<HealthObservation.PodHealth> pods = new ArrayList<>(List.of(onNewNode(r, web, true, 0, null)));
      if (slotsAsked.size() > 1) {
        // Once the canary has passed its gate (the rollout planned after it): a pod of the same workload elsewhere, evicted by another replacement, never Ready here.
        pods.add(new HealthObservation.PodHealth("default/web-moving", web, "node-elsewhere", false, 0, null));
      }
      return new HealthObservation(ready(r), pods);
    });

    UpgradeResult result = run(rolling("2", 0));

    assertEquals(UpgradeResult.SUCCEEDED, result.outcome(), result.cause());
    assertEquals(5, result.replaced());
  }

  @Test
  void rollingAGateThatNeverSeesItsPodsReadyTimesOutAndStopsTheRollout() {
    fleet(5);
    test.rollout.onObserveHealth(r -> new HealthObservation(ready(r),
        r.workloads().stream().map(w -> onNewNode(r, w, !movedFrom(r, "default-3") && !movedFrom(r, "default-2"), 0, null)).toList()));
    UpgradeResult result = run(rolling("2", 0));
    assertEquals(UpgradeResult.FAILED, result.outcome());
    assertTrue(result.cause().startsWith("gate of default-2's replacement") || result.cause().startsWith("gate of default-3's replacement"), result.cause());
    assertTrue(result.cause().contains("timed out after " + GATE_TIMEOUT_ROLLING + "s"), result.cause());
  }

  /** Each replacement soaks on its own: a moved pod that restarts during its soak fails its gate and stops the rollout. */
  @Test
  void rollingAPodThatRestartsDuringItsReplacementsSoakFailsTheGate() {
    fleet(5);
    var calls = new ConcurrentHashMap<String, Integer>();
    test.rollout.onObserveHealth(r -> new HealthObservation(ready(r), r.workloads().stream().map(w -> {
      int seen = calls.merge(w.name(), 1, Integer::sum);
      return onNewNode(r, w, true, movedFrom(r, "default-3") && seen > 1 ? 1 : 0, null);
    }).toList()));
    UpgradeResult result = run(rolling("2", 20L));
    assertEquals(UpgradeResult.FAILED, result.outcome());
    assertTrue(result.cause().startsWith("gate of default-3's replacement"), result.cause());
    assertTrue(result.cause().contains("restarted during the soak (0 to 1 restarts)"), result.cause());
  }

  /**
   * A replacement's gate asks only for the moved pods on its new node and the troubled ones elsewhere (the canary's, a
   * batch's gate, for all of them). So a pod elsewhere that was calm when the soak began is not in what the gate saw
   * then: when it shows a restart during the soak, that is a restart, and the gate fails.
   */
  @Test
  void rollingAPodElsewhereThatFirstShowsUpWithARestartDuringTheSoakFailsTheGate() {
    fleet(5);
    var canaryAsked = new java.util.concurrent.CopyOnWriteArrayList<Boolean>();
    var asked = new java.util.concurrent.CopyOnWriteArrayList<Boolean>();
    var calls = new ConcurrentHashMap<String, Integer>();
    test.rollout.onObserveHealth(r -> {
      (movedFrom(r, "default-1") ? canaryAsked : asked).add(r.troubledElsewhereOnly());
      List<HealthObservation.PodHealth> pods = new ArrayList<>(r.workloads().stream().map(w -> onNewNode(r, w, true, 0, null)).toList());
      if (movedFrom(r, "default-3") && calls.merge("default-3", 1, Integer::sum) > 1) {
        // After the gate's first look: a pod of the moved workload on another node, with a restart.
        WorkloadRef w = r.workloads().getFirst();
        pods.add(new HealthObservation.PodHealth(w.namespace() + "/" + w.name() + "-elsewhere", w, "node-elsewhere", true, 1, null));
      }
      return new HealthObservation(ready(r), pods);
    });
    UpgradeResult result = run(rolling("2", 20L));
    assertEquals(UpgradeResult.FAILED, result.outcome());
    assertTrue(result.cause().startsWith("gate of default-3's replacement"), result.cause());
    assertTrue(result.cause().contains("-elsewhere of ") && result.cause().contains("restarted during the soak (0 to 1 restarts)"),
        result.cause());
    assertEquals(List.of(false), canaryAsked.stream().distinct().toList(), "the canary's gate asks for every pod of the moved workloads");
    assertEquals(List.of(true), asked.stream().distinct().toList(), "each slot's gate, only for the troubled ones elsewhere");
  }

  @Test
  void anAbortOfARollingRolloutEndsTheGatesInFlightAndRollsBackEveryNodeItLaunched() {
    fleet(6);
    test.rollout.onObserveHealth(r -> new HealthObservation(ready(r),
        r.workloads().stream().map(w -> onNewNode(r, w, !movedFrom(r, "default-2"), 0, null)).toList()));
    NodePoolUpgradeWorkflow workflow = start(rolling("2", 0));
    // Every other node is done; default-2's replacement has closed and its gate waits (an abort signal to it finds no
    // running workflow, which must not fail the rollout).
    Eventually.await("rolling, default-2 alone at its gate", workflow::progress,
        p -> p.phase().equals("Rolling") && p.replaced() == 5 && p.current().equals(List.of("default-2")));

    workflow.abort(new OperatorRequest("error rate up", "carol"));

    UpgradeResult result = result();
    assertEquals(UpgradeResult.ABORTED, result.outcome());
    assertEquals("aborted: error rate up (by carol)", result.cause());
    int handedOut = batchSizes.stream().mapToInt(Integer::intValue).sum();
    assertEquals(handedOut, result.rolledBack(), "every node it launched, default-2's too, was replaced back: " + batchSizes);
    assertEquals("release [default]", test.journal.steps().getLast());
  }

  @Test
  void rollingStopsAtOneFailureTooManyWithoutStartingMore() {
    fleet(6);
    failRegistration(2);
    UpgradeResult result = run(rolling("2", 0));
    assertEquals(UpgradeResult.FAILED, result.outcome(), String.valueOf(result.cause()));
    assertEquals(1, result.failures());
    assertTrue(result.cause().startsWith("replacement of default-"), result.cause());
    assertTrue(batchSizes.stream().mapToInt(Integer::intValue).sum() < 6, "it stopped starting: " + batchSizes);
  }

  /**
   * A change freeze that comes while a rolling rollout runs holds its new starts: the replacements in flight finish,
   * nothing is planned or started while it holds, and the rollout goes on once it is lifted.
   */
  @Test
  void rollingAFreezeHoldsNewStartsWhileTheReplacementsInFlightFinish() {
    fleet(6);
    String freeze = "frozen cluster-wide since 2026-11-24T10:00:00Z by alice: incident 4711";
    var frozen = new java.util.concurrent.atomic.AtomicBoolean();
    test.rollout.onObserveHealth(r -> {
      if (!movedFrom(r, "default-1") && frozen.compareAndSet(false, true)) {
        // The first gate after the canary's: both slots are in flight, and neither has freed yet. The freeze holds for
        // three questions (the rollout asks when a slot frees, and again each re-plan interval), then it is lifted.
        test.rollout.freezeFor(freeze, 3);
      }
      return new HealthObservation(ready(r), r.workloads().stream().map(w -> onNewNode(r, w, true, 0, null)).toList());
    });

    UpgradeResult result = run(rolling("2", 0));

    assertEquals(UpgradeResult.SUCCEEDED, result.outcome(), result.cause());
    assertEquals(6, result.replaced());
    List<String> calls = test.journal.all().stream()
        .filter(c -> c.startsWith("frozen") || c.startsWith("planRollout")).toList();
    int firstHeld = calls.indexOf("frozen [default] " + freeze);
    int lastHeld = calls.lastIndexOf("frozen [default] " + freeze);
    assertEquals(3, calls.stream().filter(c -> c.equals("frozen [default] " + freeze)).count(), calls.toString());
    assertEquals(List.of(), calls.subList(firstHeld, lastHeld).stream().filter(c -> c.startsWith("planRollout")).toList(),
        "nothing planned while frozen: " + calls);
    assertEquals(2, calls.subList(0, firstHeld).stream().filter(c -> c.startsWith("planRollout")).count(),
        "the canary's plan and the first two slots' before the freeze: " + calls);
    assertEquals(List.of(1, 2), batchSizes.subList(0, 2), batchSizes.toString());
  }

  /**
   * A step that fails past its retries while a rolling rollout plans its next slot stops it: nothing more is started,
   * the replacement in flight finishes, and every node the rollout launched is rolled back.
   */
  @Test
  void rollingAPlanThatFailsPastItsRetriesStopsNewStartsAndRollsBack() {
    fleet(6);
    planFailing = 3; // the canary's plan, the first two slots', then the one after a slot frees
    UpgradeResult result = run(rolling("2", 0));

    assertEquals(UpgradeResult.FAILED, result.outcome());
    assertTrue(result.cause().startsWith("a step failed: "), result.cause());
    assertTrue(result.cause().contains("the API server refused"), result.cause());
    assertEquals(List.of(1, 2), batchSizes, "nothing started after the failed plan");
    assertEquals(3, result.replaced(), "the replacement in flight finished");
    assertEquals(3, result.rolledBack(), "every node it launched, the one in flight too, was replaced back");
    assertEquals("release [default]", test.journal.steps().getLast());
  }

  @Test
  void aPercentageBatchIsOfTheWholeFleet() {
    fleet(10);
    UpgradeResult result = run(input(1, "30%", false, 0));
    assertEquals(UpgradeResult.SUCCEEDED, result.outcome(), result.cause());
    assertEquals(List.of(1, 3, 3, 3), batchSizes);
  }

  @Test
  void aCrashLoopingPodFailsTheGateStopsTheRolloutAndRollsTheCanaryBack() {
    fleet(5);
    test.rollout.onObserveHealth(r -> new HealthObservation(
        r.nodes().stream().map(n -> new HealthObservation.NodeHealth(n, true, true)).toList(),
        r.workloads().stream().map(w -> FakeRolloutActivities.pod("default/web-1", w, false, 4, "CrashLoopBackOff")).toList()));

    UpgradeResult result = run(input(1, "2", false, 0));

    assertEquals(UpgradeResult.FAILED, result.outcome());
    assertTrue(result.cause().contains("CrashLoopBackOff"), result.cause());
    assertTrue(result.cause().startsWith("gate of batch 1 failed"), result.cause());
    assertEquals(List.of(1), batchSizes, "no old node past the canary was touched");
    assertEquals(1, test.journal.count("switchImages back " + FakeRolloutActivities.OLD_TERMS));
    // The canary's replacement (on the new AMI) was itself replaced by a node on the previous images.
    assertEquals(1, result.rolledBack());
    // One round replaced it; the next found none left.
    assertEquals(2, test.journal.countStartingWith("planRollout rollback"), test.journal.all().toString());
    assertEquals("release [default]", test.journal.steps().getLast());
  }

  @Test
  void aNewNodeThatNeverRegistersStopsTheRolloutAfterTheCanaryWithTheCause() {
    fleet(4);
    test.nodeClaims.onAwaitRegistered(r -> {
      throw ApplicationFailure.newNonRetryableFailure("node did not register within 900s", FailureTypes.REGISTRATION_TIMEOUT);
    });

    UpgradeResult result = run(input(1, "2", false, 0));

    assertEquals(UpgradeResult.FAILED, result.outcome());
    assertTrue(result.cause().contains("default-1") && result.cause().contains("register"), result.cause());
    assertEquals(List.of(1), batchSizes);
    assertEquals(0, result.replaced());
    assertEquals(1, test.journal.count("switchImages back " + FakeRolloutActivities.OLD_TERMS));
    // The replacement gave the old node back at once (no wait for an operator's Retry).
    assertTrue(test.journal.count("untaintDisrupted node-default-1") >= 1, test.journal.all().toString());
    assertEquals(0, test.journal.count("terminateInstance i-default-1"));
  }

  @Test
  void maxFailuresLetsARolloutGoOnPastAFailedReplacement() {
    fleet(3);
    failRegistration(1);
    UpgradeResult result = run(input(1, "2", false, 1));
    assertEquals(UpgradeResult.SUCCEEDED, result.outcome(), result.cause());
    assertEquals(1, result.failures());
    assertEquals(2, result.replaced());
  }

  @Test
  void aGateThatNeverSeesReadyPodsTimesOut() {
    fleet(2);
    test.rollout.onObserveHealth(r -> new HealthObservation(
        r.nodes().stream().map(n -> new HealthObservation.NodeHealth(n, true, false)).toList(), List.of()));
    UpgradeResult result = run(input(1, "1", false, 0));
    assertEquals(UpgradeResult.FAILED, result.outcome());
    assertTrue(result.cause().startsWith("gate of batch 1 timed out after 300s"), result.cause());
    assertTrue(result.cause().contains("not Ready"), result.cause());
  }

  @Test
  void aPodThatRestartsDuringTheSoakFailsTheGate() {
    fleet(2);
    int[] calls = {0};
    test.rollout.onObserveHealth(r -> {
      int restarts = calls[0]++ < 2 ? 0 : 1;
      return new HealthObservation(r.nodes().stream().map(n -> new HealthObservation.NodeHealth(n, true, true)).toList(),
          r.workloads().stream().map(w -> FakeRolloutActivities.pod("default/web-1", w, true, restarts, null)).toList());
    });
    UpgradeResult result = run(input(1, "1", false, 0));
    assertEquals(UpgradeResult.FAILED, result.outcome());
    assertTrue(result.cause().contains("restarted during the soak (0 to 1 restarts)"), result.cause());
  }

  @Test
  void approvalHoldsTheRolloutAfterTheCanaryUntilApproved() {
    fleet(3);
    NodePoolUpgradeWorkflow workflow = start(input(1, "2", true, 0));
    Eventually.await("waiting for approval", workflow::progress, p -> p.phase().equals("AwaitingApproval"));
    assertEquals(List.of(1), batchSizes);
    assertTrue(workflow.progress().blocker().contains("Approve"));

    workflow.approve(new OperatorRequest("canary looks good", "alice"));

    assertEquals(UpgradeResult.SUCCEEDED, result().outcome());
    assertEquals(List.of(1, 2), batchSizes);
  }

  /**
   * {@code farrier upgrade preview <id>}: the rollout answers what it has left (its NodePools, its resolved target,
   * what it has done: the canary, the total, in flight, its phase) from its state alone, as a query: no activity, and
   * nothing in its history, however often a CI job asks (a preview once ran an activity in an Update here, its answer
   * twice in the long-lived history, and an Abort accepted while it ran was lost at the next continue-as-new).
   */
  @Test
  void aRunningRolloutAnswersWhatIsLeftFromItsStateLeavingNothingInItsHistory() {
    fleet(3);
    NodePoolUpgradeWorkflow workflow = start(input(1, "2", true, 0));
    Eventually.await("waiting for approval", workflow::progress, p -> p.phase().equals("AwaitingApproval"));
    long stepsBefore = test.journal.all().size();
    int eventsBefore = test.client().fetchHistory(ID).getHistory().getEventsCount();

    RolloutRemaining answer = workflow.remaining();
    workflow.remaining();
    PreviewRolloutRequest left = answer.preview();

    assertEquals(ID, left.target().workflowId());
    assertEquals(List.of("default"), left.target().nodePools());
    assertEquals(1, left.running().batches(), "past its canary");
    assertEquals(3, left.running().total());
    assertEquals("AwaitingApproval", left.running().phase());
    assertEquals(null, answer.refused());
    assertEquals("2", left.batchSize());
    assertTrue(left.approvalRequired());
    assertEquals(stepsBefore, test.journal.all().size(), "no activity: " + test.journal.all());
    assertEquals(List.of(), test.preview.requests);
    assertEquals(eventsBefore, test.client().fetchHistory(ID).getHistory().getEventsCount(), "nothing in the history");
    workflow.approve(new OperatorRequest("canary looks good", "alice"));
    assertEquals(UpgradeResult.SUCCEEDED, result().outcome());
  }

  @Test
  void whatIsLeftIsRefusedOnceTheRolloutIsStopping() {
    fleet(3);
    NodePoolUpgradeWorkflow workflow = start(input(1, "2", true, 0));
    Eventually.await("waiting for approval", workflow::progress, p -> p.phase().equals("AwaitingApproval"));
    workflow.abort(new OperatorRequest("canary latency doubled", "bob"));

    RolloutRemaining refused = workflow.remaining();
    assertEquals(null, refused.preview());
    assertTrue(String.valueOf(refused.refused()).contains("nothing left to preview"), refused.toString());
  }

  /** Before the rollout has taken its NodePools there is nothing of its own to preview: the dry run is the answer. */
  @Test
  void whatIsLeftIsRefusedBeforeTheRolloutHasTakenItsNodePools() throws Exception {
    fleet(3);
    var claimAsked = new java.util.concurrent.CountDownLatch(1);
    var claimMayAnswer = new java.util.concurrent.CountDownLatch(1);
    test.rollout.onClaim(r -> {
      claimAsked.countDown();
      try {
        claimMayAnswer.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return FakeRolloutActivities.claimed(r);
    });
    NodePoolUpgradeWorkflow workflow = start(input(1, "2", false, 0));
    assertTrue(claimAsked.await(30, java.util.concurrent.TimeUnit.SECONDS));

    RolloutRemaining refused = workflow.remaining();
    assertEquals(null, refused.preview());
    assertTrue(String.valueOf(refused.refused()).contains("has not taken its NodePools yet"), refused.toString());
    claimMayAnswer.countDown();
    assertEquals(UpgradeResult.SUCCEEDED, result().outcome());
  }

  @Test
  void approveIsRefusedWhenNothingWaitsForIt() {
    fleet(3);
    test.rollout.onObserveHealth(r -> new HealthObservation(
        r.nodes().stream().map(n -> new HealthObservation.NodeHealth(n, true, false)).toList(), List.of()));
    NodePoolUpgradeWorkflow workflow = start(input(1, "2", true, 0));
    Eventually.await("at the gate", workflow::progress, p -> p.phase().equals("Gate"));

    var refused = assertThrows(WorkflowUpdateException.class, () -> workflow.approve(OperatorRequest.of(null)));
    assertTrue(String.valueOf(refused.getCause().getMessage()).contains("not waiting for approval"), refused.getCause().getMessage());
    var noReason = assertThrows(WorkflowUpdateException.class, () -> workflow.abort(OperatorRequest.of(" ")));
    assertTrue(String.valueOf(noReason.getCause().getMessage()).contains("needs a reason"));
  }

  @Test
  void anAbortStopsTheRolloutRollsBackAndSaysWhoAndWhy() {
    fleet(3);
    NodePoolUpgradeWorkflow workflow = start(input(1, "2", true, 0));
    Eventually.await("waiting for approval", workflow::progress, p -> p.phase().equals("AwaitingApproval"));

    String said = workflow.abort(new OperatorRequest("canary latency doubled", "bob"));
    assertTrue(said.contains("abort accepted"), said);

    UpgradeResult result = result();
    assertEquals(UpgradeResult.ABORTED, result.outcome());
    assertEquals("aborted: canary latency doubled (by bob)", result.cause());
    assertEquals(List.of(1), batchSizes);
    assertEquals(1, result.rolledBack());
    assertEquals(1, test.journal.count("switchImages back " + FakeRolloutActivities.OLD_TERMS));
    assertEquals("release [default]", test.journal.steps().getLast());
  }

  @Test
  void aNodePoolOwnedByAnotherRunningRolloutIsRefusedAndNothingIsTouched() {
    fleet(2);
    test.rollout.onClaim(r -> {
      throw ApplicationFailure.newNonRetryableFailure("NodePool default is being upgraded by upgrade/default/al2023@v1",
          FailureTypes.ROLLOUT_CONFLICT);
    });
    start(input(1, "1", false, 0));
    var failed = assertThrows(WorkflowFailedException.class, this::result);
    assertEquals(FailureTypes.ROLLOUT_CONFLICT, ((ApplicationFailure) failed.getCause().getCause()).getType());
    assertEquals(0, test.journal.countStartingWith("switchImages"));
    assertEquals(0, test.journal.countStartingWith("planRollout"));
    assertEquals(0, test.journal.countStartingWith("release"));
  }

  @Test
  void anInputNoRolloutCouldDoFailsBeforeTouchingAnything() {
    start(new UpgradeInput(Fixtures.CLUSTER, List.of("default"), "default", TARGET, null, "2", 1, 60, 300, false, 0, false, null, null));
    var failed = assertThrows(WorkflowFailedException.class, this::result);
    assertEquals(FailureTypes.INVALID_UPGRADE, ((ApplicationFailure) failed.getCause()).getType());
    assertTrue(test.journal.all().isEmpty(), test.journal.all().toString());
  }

  @Test
  void aTargetTheClassAlreadySelectsSwitchesNothingAndRollsWhatIsStillDrifted() {
    fleet(1);
    test.rollout.onClaim(r -> {
      var c = FakeRolloutActivities.claimed(r);
      return new dev.farrier.workflows.activities.RolloutClaim(c.nodePools(), c.nodeClass(), r.targetTerms(), null,
          c.targetImages(), r.targetTerms(), null, c.targetImages(), c.settings());
    });
    UpgradeResult result = run(input(1, "1", false, 0));
    assertEquals(UpgradeResult.SUCCEEDED, result.outcome());
    assertEquals(0, test.journal.countStartingWith("switchImages"));
    assertEquals(1, result.replaced());
  }

  @Test
  void theProgressQueryShowsTheRolloutWhileItRuns() {
    fleet(3);
    NodePoolUpgradeWorkflow workflow = start(input(1, "2", true, 0));
    UpgradeProgress progress = Eventually.await("waiting for approval", workflow::progress,
        p -> p.phase().equals("AwaitingApproval"));
    assertEquals("al2023@v20251103", progress.target());
    assertEquals(List.of("default"), progress.nodePools());
    assertEquals(1, progress.batch());
    assertEquals(3, progress.total());
    assertEquals(1, progress.replaced());
    assertEquals("ci-job-42", progress.requestedBy());
    assertFalse(progress.blocker().isBlank());
  }

  @Test
  void aChangeFreezeHoldsTheRolloutBeforeItsNextBatchUntilLifted() {
    fleet(3);
    test.rollout.freezeWith("frozen cluster-wide since 2026-11-24T10:00:00Z by alice: incident 4711");
    NodePoolUpgradeWorkflow workflow = start(input(1, "2", false, 0));
    UpgradeProgress held = Eventually.await("held by the freeze", workflow::progress,
        p -> p.phase().equals("Waiting") && p.blocker() != null);
    assertTrue(held.blocker().contains("incident 4711"), held.blocker());
    assertEquals(List.of(), batchSizes, "no batch while frozen");
    assertEquals(0, test.journal.countStartingWith("planRollout"));

    test.rollout.freezeWith(null);
    assertEquals(UpgradeResult.SUCCEEDED, result().outcome());
    assertEquals(List.of(1, 2), batchSizes);
  }

  /**
   * A worker that restarts mid-rollout rebuilds the rollout from its history: the history of a rollout held after its
   * canary replays against the workflow code (what a new worker does), and the rollout then goes on to the end.
   */
  @Test
  void aRolloutHeldMidwayReplaysFromItsHistoryAndGoesOn() throws Exception {
    fleet(3);
    NodePoolUpgradeWorkflow workflow = start(input(1, "2", true, 0));
    Eventually.await("waiting for approval", workflow::progress, p -> p.phase().equals("AwaitingApproval"));

    io.temporal.testing.WorkflowReplayer.replayWorkflowExecution(test.client().fetchHistory(ID), NodePoolUpgradeWorkflowImpl.class);

    workflow.approve(OperatorRequest.of(null));
    UpgradeResult result = result();
    assertEquals(UpgradeResult.SUCCEEDED, result.outcome());
    io.temporal.testing.WorkflowReplayer.replayWorkflowExecution(test.client().fetchHistory(ID), NodePoolUpgradeWorkflowImpl.class);
  }

  @Test
  void aRollbackThatFailsStillGivesTheNodePoolsBackAndSaysWhatToCheck() {
    fleet(3);
    test.rollout.failSwitchBack().onObserveHealth(r -> new HealthObservation(
        r.nodes().stream().map(n -> new HealthObservation.NodeHealth(n, true, true)).toList(),
        r.workloads().stream().map(w -> FakeRolloutActivities.pod("default/web-1", w, false, 2, "CrashLoopBackOff")).toList()));

    UpgradeResult result = run(input(1, "2", false, 0));

    assertEquals(UpgradeResult.FAILED, result.outcome());
    assertTrue(result.cause().contains("the rollback failed"), result.cause());
    assertTrue(result.cause().contains("farrier.dev/previous-ami-selector-terms"), result.cause());
    assertEquals(1, test.journal.count("release [default]"), "the NodePools are given back");
    assertEquals(1, test.journal.count("release keeps the nodeclass record"));
  }
}
