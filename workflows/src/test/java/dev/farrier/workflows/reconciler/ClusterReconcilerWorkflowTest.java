package dev.farrier.workflows.reconciler;

import dev.farrier.model.Freeze;
import dev.farrier.model.ReconcilerSettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.model.ReplacementPlan;
import dev.farrier.workflows.activities.PlanProvisioningRequest;
import dev.farrier.model.ProvisioningPlan;
import dev.farrier.model.NodeClaimRequest;
import dev.farrier.model.PodRef;
import dev.farrier.model.LaunchSettings;
import dev.farrier.workflows.provisioning.ProvisioningInput;
import dev.farrier.workflows.provisioning.ProvisioningWorkflow;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.ReplacementInput;
import dev.farrier.workflows.testing.FakeNodeActivities;
import dev.farrier.workflows.testing.FakeNodeClaimActivities;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.client.BatchRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ClusterReconcilerWorkflowTest {
  private static final String ID = WorkflowIds.reconciler(Fixtures.CLUSTER);
  /** Windows far longer than the real time a test takes between two signals. */
  private static final ReconcilerSettings SETTINGS =
      new ReconcilerSettings(60_000, 100_000, 3_600_000, new LaunchSettings(120, 120), 2, 30);

  private final FarrierTestEnvironment test = new FarrierTestEnvironment();

  @AfterEach
  void close() {
    test.close();
  }

  private ClusterReconcilerWorkflow start(ReconcilerSettings settings) {
    test.start();
    ClusterReconcilerWorkflow workflow = test.newWorkflow(ClusterReconcilerWorkflow.class, ID);
    WorkflowClient.start(workflow::run, new ReconcilerInput(Fixtures.CLUSTER, settings, 1, List.of()));
    return test.existing(ClusterReconcilerWorkflow.class, ID);
  }

  /**
   * Starts the reconciler by signal-with-start, as the worker does: its input carries batch 7, holding pod a, from the
   * run before (released in an hour), and {@code signal} adds the signal that lands in its first workflow task, whose
   * handlers the SDK runs before the workflow method. Returns the carried batch's id.
   */
  private String signalWithStartCarryingA(BiConsumer<BatchRequest, ClusterReconcilerWorkflow> signal) {
    test.start();
    String carried = WorkflowIds.provisioning(Fixtures.CLUSTER, 7);
    long releaseAt = test.env.currentTimeMillis() + Duration.ofHours(1).toMillis();
    ClusterReconcilerWorkflow workflow = test.newWorkflow(ClusterReconcilerWorkflow.class, ID);
    BatchRequest request = test.client().newSignalWithStartRequest();
    request.add(workflow::run, new ReconcilerInput(Fixtures.CLUSTER, SETTINGS, 8, List.of(),
        List.of(new CarriedBatch(carried, List.of("uid-a"), releaseAt)), List.of(), List.of()));
    signal.accept(request, workflow);
    test.client().signalWithStart(request);
    return carried;
  }

  private List<List<String>> batches() {
    return test.planning.provisioningRequests().stream()
        .map(r -> r.pods().stream().map(PodRef::name).toList()).toList();
  }

  @Test
  void newSettingsFromAWorkerApplyToTheRunningReconciler() {
    var everyTenSeconds = new ReconcilerSettings(1_000, 10_000, 10_000, new LaunchSettings(120, 120), 2, 30);
    ClusterReconcilerWorkflow reconciler = start(everyTenSeconds);
    test.sleep(Duration.ofSeconds(35));
    long before = test.journal.countStartingWith("planDisruption");

    reconciler.updateSettings(new ReconcilerSettings(1_000, 10_000, 600_000, new LaunchSettings(120, 120), 2, 30));
    test.sleep(Duration.ofSeconds(300));

    assertEquals(3L, before, "every 10 s before the update");
    assertTrue(test.journal.countStartingWith("planDisruption") <= before + 1,
        "at most the round already scheduled, then every 10 min: " + test.journal.countStartingWith("planDisruption"));
  }

  @Test
  void podsSignalledWithinTheIdleWindowBecomeOneBatch() {
    ClusterReconcilerWorkflow reconciler = start(SETTINGS);

    reconciler.podsPending(new PendingPods(List.of(Fixtures.pod("a"))));
    reconciler.podsPending(new PendingPods(List.of(Fixtures.pod("b"), Fixtures.pod("a"))));
    test.sleep(Duration.ofSeconds(90));
    reconciler.podsPending(new PendingPods(List.of(Fixtures.pod("c"))));
    test.sleep(Duration.ofSeconds(90));

    assertEquals(List.of(List.of("a", "b"), List.of("c")), batches());
    assertEquals(List.of(WorkflowIds.provisioning(Fixtures.CLUSTER, 1), WorkflowIds.provisioning(Fixtures.CLUSTER, 2)),
        test.planning.provisioningRequests().stream().map(PlanProvisioningRequest::batchId)
            .map(id -> id.substring(0, id.lastIndexOf('/'))).toList(), "each batch's id, before its run id");
    ReconcilerStatus status = reconciler.status();
    assertEquals(3, status.nextBatch());
    assertEquals(0, status.pendingPods());
  }

  @Test
  void manyPendingPodsGoOutAsBatchesOfAtMostTheCapBackToBack() {
    ClusterReconcilerWorkflow reconciler = start(SETTINGS);
    int total = ProvisioningBatch.MAX_BATCH_PODS + 500;
    List<PodRef> pods = java.util.stream.IntStream.range(0, total).mapToObj(i -> Fixtures.pod("p" + i)).toList();

    for (int from = 0; from < total; from += 500) {
      reconciler.podsPending(new PendingPods(pods.subList(from, from + 500)));
    }
    test.sleep(Duration.ofSeconds(90));

    // By batch number: the two batches run at once, so their planning calls may come in either order (CI once saw
    // the second batch's first).
    List<List<String>> batches = test.planning.provisioningRequests().stream()
        .sorted(java.util.Comparator.comparingLong(r -> Long.parseLong(r.batchId().split("/")[2])))
        .map(r -> r.pods().stream().map(PodRef::name).toList()).toList();
    assertEquals(List.of(ProvisioningBatch.MAX_BATCH_PODS, 500), batches.stream().map(List::size).toList());
    assertEquals(pods.stream().map(PodRef::name).toList(), batches.stream().flatMap(List::stream).toList(), "oldest first, none lost");
  }

  @Test
  void aPodLeftUnboundWhereItWasPlannedIsPlannedAgainOnceItsOwnLaunchClosesNotTheBatchsSlowest() {
    // Claim "fast" is planned for a, "slow" for b; each initializes only when the test lets it (until then its
    // AwaitInitialized fails and is retried).
    AtomicBoolean fastReady = new AtomicBoolean();
    AtomicBoolean slowReady = new AtomicBoolean();
    test.planning.onPlanProvisioning(request -> request.pods().size() == 2
        ? new ProvisioningPlan(List.of(claimFor("fast", "a"), claimFor("slow", "b")), List.of())
        : new ProvisioningPlan(List.of(), List.of()));
    test.nodeClaims.onAwaitInitialized(request -> {
      if (!(request.nodeClaim().equals("fast") ? fastReady : slowReady).get()) {
        throw ApplicationFailure.newFailure("not initialized yet", "NotInitialized");
      }
    });
    ClusterReconcilerWorkflow reconciler = start(new ReconcilerSettings(60_000, 100_000, 3_600_000, new LaunchSettings(3_600, 3_600), 2, 30));
    reconciler.podsPending(new PendingPods(List.of(Fixtures.pod("a"), Fixtures.pod("b"))));
    test.sleep(Duration.ofSeconds(90));
    assertEquals(List.of(List.of("a", "b")), batches());

    // Both still pending while their claims launch: the kube-scheduler will leave a unbound on "fast" (it filled it).
    reconciler.podsPending(new PendingPods(List.of(Fixtures.pod("a"), Fixtures.pod("b"))));
    fastReady.set(true);
    test.sleep(Duration.ofSeconds(150));

    String first = WorkflowIds.provisioning(Fixtures.CLUSTER, 1);
    assertTrue(reconciler.status().provisioningInFlight().contains(first), "the batch still waits for slow");
    assertEquals(List.of(List.of("a", "b"), List.of("a")), batches(), "a is planned again once fast closed");

    slowReady.set(true);
    test.sleep(Duration.ofSeconds(150));
    assertEquals(List.of(List.of("a", "b"), List.of("a"), List.of("b")), batches(), "b once the batch closed, as before");
  }

  private static NodeClaimRequest claimFor(String name, String pod) {
    NodeClaimRequest c = Fixtures.claim(name, "default");
    return new NodeClaimRequest(c.name(), c.nodePool(), c.nodeClassName(), c.instanceTypes(), c.requirements(), c.requests(),
        c.labels(), c.taints(), c.startupTaints(), c.nodePoolHash(), c.expireAfter(), c.terminationGracePeriodSeconds(),
        List.of(Fixtures.pod(pod)));
  }

  @Test
  void aBatchCarriedAcrossContinueAsNewFreesItsPodsWhenItClosesNotAtItsReleaseTime() {
    test.start();
    String carried = WorkflowIds.provisioning(Fixtures.CLUSTER, 7);
    long releaseAt = test.env.currentTimeMillis() + Duration.ofHours(1).toMillis();
    ClusterReconcilerWorkflow workflow = test.newWorkflow(ClusterReconcilerWorkflow.class, ID);
    WorkflowClient.start(workflow::run, new ReconcilerInput(Fixtures.CLUSTER, SETTINGS, 8, List.of(),
        List.of(new CarriedBatch(carried, List.of("uid-a"), releaseAt)), List.of(), List.of()));
    ClusterReconcilerWorkflow reconciler = test.existing(ClusterReconcilerWorkflow.class, ID);

    reconciler.podsPending(new PendingPods(List.of(Fixtures.pod("a"))));
    test.sleep(Duration.ofSeconds(90));
    assertEquals(List.of(), batches(), "its pod is the carried batch's while that batch runs");

    // The batch the earlier run started closes; as every batch does, it tells the reconciler, which queues the pod
    // signalled pending while that batch ran.
    ProvisioningWorkflow batch = test.newWorkflow(ProvisioningWorkflow.class, carried);
    batch.provision(new ProvisioningInput(Fixtures.CLUSTER, carried, List.of(), null));
    test.sleep(Duration.ofSeconds(90));

    assertEquals(List.of(List.of(), List.of("a")), batches(), "the carried batch's own (empty) plan, then a new batch for its pod");
    assertEquals(List.of(), reconciler.status().provisioningInFlight().stream().filter(carried::equals).toList());
  }

  @Test
  void aPodSignalledInTheRunsFirstTaskIsStillTheCarriedBatchs() {
    String carried = signalWithStartCarryingA((request, workflow) ->
        request.add(workflow::podsPending, new PendingPods(List.of(Fixtures.pod("a"), Fixtures.pod("b")))));
    test.sleep(Duration.ofSeconds(90));
    assertEquals(List.of(List.of("b")), batches(), "a is the carried batch's while it runs; b is new");

    ProvisioningWorkflow batch = test.newWorkflow(ProvisioningWorkflow.class, carried);
    batch.provision(new ProvisioningInput(Fixtures.CLUSTER, carried, List.of(), null));
    test.sleep(Duration.ofSeconds(90));

    assertEquals(List.of(List.of("b"), List.of(), List.of("a")), batches(),
        "a, signalled while its batch ran, goes into the batch after that one closes");
  }

  @Test
  void aBatchClosedInTheRunsFirstTaskIsNotHeldUntilItsReleaseTime() {
    String carried = WorkflowIds.provisioning(Fixtures.CLUSTER, 7);
    signalWithStartCarryingA((request, workflow) -> request.add(workflow::batchClosed, carried));
    ClusterReconcilerWorkflow reconciler = test.existing(ClusterReconcilerWorkflow.class, ID);
    test.sleep(Duration.ofSeconds(1));

    assertEquals(List.of(), reconciler.status().provisioningInFlight(), "the carried batch closed before the run took it over");
    reconciler.podsPending(new PendingPods(List.of(Fixtures.pod("a"))));
    test.sleep(Duration.ofSeconds(90));
    assertEquals(List.of(List.of("a")), batches(), "its pod goes into a new batch, not after the release time");
  }

  @Test
  void aBatchClosesAtTheMaxWindowWhilePodsKeepArriving() {
    ClusterReconcilerWorkflow reconciler = start(SETTINGS);

    for (String pod : List.of("a", "b", "c", "d")) {
      reconciler.podsPending(new PendingPods(List.of(Fixtures.pod(pod))));
      test.sleep(Duration.ofSeconds(40)); // never idle for 60 s: only the 100 s max closes the first batch
    }
    test.sleep(Duration.ofSeconds(90));

    assertEquals(List.of(List.of("a", "b", "c"), List.of("d")), batches());
  }

  @Test
  void startsAReplacementPerCommandAndNeverASecondOneForARunningReplacement() {
    // default-stuck's drain never ends, so its replacement is still running at every later planning round.
    test.nodes.onDrainStep(request -> request.nodeName().equals("node-default-stuck")
        ? FakeNodeActivities.blockedByPdb(List.of("default/web-1"), "default/web-pdb")
        : FakeNodeActivities.drained(List.of()));
    DisruptionPlan plan = new DisruptionPlan(0,
        List.of(Fixtures.command("default-stuck", "replace", null), Fixtures.command("default-empty", "delete", null)),
        List.of(new CandidateDecision("default-stuck", "node-default-stuck", "default", true, "drifted"),
            new CandidateDecision("default-empty", "node-default-empty", "default", true, "drifted"),
            new CandidateDecision("default-fine", "node-default-fine", "default", false, "not drifted")));
    // Once deleted, default-empty is gone from the cluster: later rounds plan only default-stuck again.
    DisruptionPlan later = new DisruptionPlan(0, List.of(plan.commands().getFirst()), plan.decisions());
    var rounds = new java.util.concurrent.atomic.AtomicInteger();
    test.planning.onPlanDisruption(request -> rounds.incrementAndGet() == 1 ? plan : later);
    ClusterReconcilerWorkflow reconciler = start(
        new ReconcilerSettings(60_000, 100_000, 30_000, new LaunchSettings(120, 120), 2, 30));

    test.sleep(Duration.ofSeconds(100)); // three planning rounds

    assertTrue(test.journal.countStartingWith("planDisruption") >= 3);
    assertEquals(1, test.journal.count("taintDisrupted node-default-stuck"), "one replacement of default-stuck");
    assertTrue(test.journal.count("deleteNodeClaim default-empty") >= 1, "the delete command ran");
    ReconcilerStatus status = reconciler.status();
    assertEquals(later, status.lastPlan());
    assertEquals(1, status.replacementsStarted().stream().filter(WorkflowIds.disruption("default-stuck")::equals).count());
    assertTrue(status.replacementsStarted().contains(WorkflowIds.disruption("default-empty")));
  }

  @Test
  void aRoundAsksForAllItsReplacementsInOneWorkflowTaskNotOneStartAfterTheOther() {
    List<String> claims = List.of("default-a", "default-b", "default-c");
    var rounds = new java.util.concurrent.atomic.AtomicInteger();
    test.planning.onPlanDisruption(request -> rounds.incrementAndGet() == 1
        ? new DisruptionPlan(0, claims.stream().map(c -> Fixtures.command(c, "delete", null)).toList(), List.of())
        : new DisruptionPlan(0, List.of(), List.of()));
    start(new ReconcilerSettings(60_000, 100_000, 60_000, new LaunchSettings(120, 120), 2, 30));

    test.sleep(Duration.ofSeconds(90)); // the first round comes at the 60 s interval

    var starts = test.env.getWorkflowClient().fetchHistory(ID).getHistory().getEventsList().stream()
        .filter(io.temporal.api.history.v1.HistoryEvent::hasStartChildWorkflowExecutionInitiatedEventAttributes)
        .map(io.temporal.api.history.v1.HistoryEvent::getStartChildWorkflowExecutionInitiatedEventAttributes)
        .filter(a -> a.getWorkflowId().startsWith("disrupt/"))
        .toList();
    assertEquals(claims.stream().map(WorkflowIds::disruption).toList(), starts.stream().map(a -> a.getWorkflowId()).toList());
    assertEquals(1, starts.stream().map(a -> a.getWorkflowTaskCompletedEventId()).distinct().count(),
        "all three asked for by the same workflow task");
  }

  /**
   * When each planning round ran, recorded: the first plans {@code claim} ({@code method}, as drifted; nothing when
   * null), the others nothing.
   */
  private List<Long> recordRounds(String claim, String method) {
    List<Long> rounds = new java.util.concurrent.CopyOnWriteArrayList<>();
    test.planning.onPlanDisruption(request -> {
      rounds.add(test.env.currentTimeMillis());
      return rounds.size() == 1 && claim != null
          ? new DisruptionPlan(0, List.of(Fixtures.command(claim, method, null)),
              List.of(new CandidateDecision(claim, "node-" + claim, "default", true, "drifted")))
          : new DisruptionPlan(0, List.of(), List.of());
    });
    return rounds;
  }

  @Test
  void aReplacementThatClosesBringsTheNextRoundForwardSoItsBudgetSlotIsTakenAtOnce() {
    // A minute between rounds: without the refill the second round would come 60 s after the first.
    List<Long> rounds = recordRounds("default-empty", "delete");
    start(new ReconcilerSettings(60_000, 100_000, 60_000, new LaunchSettings(120, 120), 2, 30));

    test.sleep(Duration.ofSeconds(100));

    assertTrue(test.journal.count("deleteNodeClaim default-empty") >= 1, "the delete ran and closed");
    assertTrue(rounds.size() >= 2, "rounds: " + rounds);
    long gap = rounds.get(1) - rounds.get(0);
    assertTrue(gap < 30_000, "the round after the close came " + gap + " ms after the first, not at the 60 s interval");
    assertTrue(gap >= ClusterReconcilerWorkflowImpl.REFILL_DELAY.toMillis(), "not before the refill delay: " + gap);
  }

  @Test
  void aReplacementItStartedIsCountedFromItsResultNotFromItsSignal() {
    // default-stuck's drain never ends: its replacement runs on. A replacementClosed signal naming it (its own signal
    // as it closes, which reaches the reconciler just before its result) must not bring a round forward on its own,
    // or every close would cost a second round.
    test.nodes.onDrainStep(request -> FakeNodeActivities.blockedByPdb(List.of("default/web-1"), "default/web-pdb"));
    List<Long> rounds = recordRounds("default-stuck", "replace");
    ClusterReconcilerWorkflow reconciler = start(new ReconcilerSettings(60_000, 100_000, 60_000, new LaunchSettings(120, 120), 2, 30));
    test.sleep(Duration.ofSeconds(70));
    assertEquals(1, test.journal.count("taintDisrupted node-default-stuck"), "its replacement runs");

    reconciler.replacementClosed("default-stuck");
    test.sleep(Duration.ofSeconds(30));

    assertEquals(1, rounds.size(), "no round before the 120 s interval: " + rounds);
  }

  @Test
  void aReplacementItDidNotStartBringsTheNextRoundForwardWhenItCloses() {
    // As after a continue-as-new: the replacement was started by an earlier run (here, by hand), so this run only
    // learns of its close from the replacement's signal.
    List<Long> rounds = recordRounds(null, null);
    start(new ReconcilerSettings(60_000, 100_000, 60_000, new LaunchSettings(120, 120), 2, 30));
    test.sleep(Duration.ofSeconds(65));
    assertEquals(1, rounds.size(), "the first round, at the 60 s interval");

    var replacement = test.newWorkflow(NodeReplacementWorkflow.class, WorkflowIds.disruption("default-empty"));
    long started = test.env.currentTimeMillis();
    WorkflowClient.start(replacement::replace, new ReplacementInput(Fixtures.CLUSTER,
        Fixtures.command("default-empty", "delete", null), new LaunchSettings(120, 120), 2, 30));
    test.sleep(Duration.ofSeconds(35));

    assertTrue(test.journal.count("deleteNodeClaim default-empty") >= 1, "the replacement ran and closed");
    assertEquals(2, rounds.size(), "a round after the close, before the next interval: " + rounds);
    assertTrue(rounds.get(1) - started < 30_000, "the round came " + (rounds.get(1) - started) + " ms after the start");
  }

  @Test
  void roundsAskOnlyForWhatTheyDisruptAndAPreviewAsksForEveryDecisionUnderTheFreezesInForce() {
    List<dev.farrier.workflows.activities.PlanDisruptionRequest> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
    var everyDecision = new DisruptionPlan(0, List.of(), List.of(
        new CandidateDecision("default-a", "node-a", "default", false, "not drifted; not empty: 3 pod(s)")));
    test.planning.onPlanDisruption(request -> {
      asked.add(request);
      return request.purpose() == dev.farrier.workflows.activities.PlanDisruptionRequest.Purpose.PREVIEW
          ? everyDecision : DisruptionPlan.empty(0);
    });
    ClusterReconcilerWorkflow reconciler = start(new ReconcilerSettings(60_000, 100_000, 10_000, new LaunchSettings(120, 120), 2, 30));
    test.sleep(Duration.ofSeconds(25));
    reconciler.freeze(new FreezeRequest(null, "holiday", "ops"));

    DisruptionPlan preview = reconciler.previewPlan();

    assertEquals(everyDecision, preview);
    var previews = asked.stream().filter(r -> r.purpose() == dev.farrier.workflows.activities.PlanDisruptionRequest.Purpose.PREVIEW).toList();
    assertEquals(1, previews.size());
    assertEquals(java.util.Map.of(Freeze.CLUSTER_WIDE, reconciler.status().freezes().getFirst().describe()), previews.getFirst().frozen());
    assertTrue(asked.stream().filter(r -> !previews.contains(r)).allMatch(r -> r.purpose()
        == dev.farrier.workflows.activities.PlanDisruptionRequest.Purpose.ROUND), "every round: " + asked);
    assertTrue(asked.size() >= 3, "two rounds and the preview: " + asked.size());
  }

  @Test
  void aFreezeIsPassedToEveryPlanningRoundUntilLiftedAndShowsInTheStatus() {
    List<java.util.Map<String, String>> frozenSeen = new java.util.concurrent.CopyOnWriteArrayList<>();
    test.planning.onPlanDisruption(request -> {
      frozenSeen.add(request.frozen());
      return DisruptionPlan.empty(0);
    });
    ClusterReconcilerWorkflow reconciler = start(
        new ReconcilerSettings(60_000, 100_000, 10_000, new LaunchSettings(120, 120), 2, 30));

    var noReason = assertThrows(io.temporal.client.WorkflowUpdateException.class,
        () -> reconciler.freeze(new FreezeRequest(null, " ", "alice")));
    assertTrue(noReason.getCause().getMessage().contains("needs a reason"), noReason.getCause().getMessage());
    String said = reconciler.freeze(new FreezeRequest(null, "incident 4711", "alice"));
    assertTrue(said.startsWith("frozen cluster-wide since "), said);
    var twice = assertThrows(io.temporal.client.WorkflowUpdateException.class,
        () -> reconciler.freeze(new FreezeRequest(null, "again", "bob")));
    assertTrue(twice.getCause().getMessage().contains("already frozen cluster-wide"), twice.getCause().getMessage());
    reconciler.freeze(new FreezeRequest("gpu", "driver rollout", "bob"));
    test.sleep(Duration.ofSeconds(25));

    assertEquals(java.util.Set.of("*", "gpu"), frozenSeen.getLast().keySet());
    assertTrue(frozenSeen.getLast().get("*").endsWith("by alice: incident 4711"), frozenSeen.getLast().toString());
    assertEquals(2, reconciler.status().freezes().size());

    var notFrozen = assertThrows(io.temporal.client.WorkflowUpdateException.class,
        () -> reconciler.unfreeze(new FreezeRequest("web", null, "carol")));
    assertTrue(notFrozen.getCause().getMessage().contains("not frozen nodepool web"), notFrozen.getCause().getMessage());
    reconciler.unfreeze(new FreezeRequest(null, null, "carol"));
    reconciler.unfreeze(new FreezeRequest("gpu", null, "carol"));
    test.sleep(Duration.ofSeconds(25));
    assertEquals(java.util.Map.of(), frozenSeen.getLast());
    assertEquals(List.of(), reconciler.status().freezes());
  }

  @Test
  void aFailingReplacementBacksOffInsteadOfChurningEveryRound() {
    test.planning.onPlanReplacement(request -> new ReplacementPlan(null, 3, "nodepool default: cpu limit reached"));
    test.planning.onPlanDisruption(request -> new DisruptionPlan(0, List.of(Fixtures.command("default-full", "replace", null)),
        List.of(new CandidateDecision("default-full", "node-default-full", "default", true, "drifted"))));
    ClusterReconcilerWorkflow reconciler = start(
        new ReconcilerSettings(60_000, 100_000, 10_000, new LaunchSettings(120, 120), 2, 30));

    // The failed replacement waits 10 minutes for an operator's Retry, then fails; the reconciler cools down a minute.
    test.sleep(Duration.ofMinutes(12));

    assertTrue(test.journal.countStartingWith("planDisruption") >= 60);
    assertEquals(2, test.journal.count("planReplacement default-full"),
        "tried at the first round, then once more after the hold and the 1 minute cooldown, not every 10 s");
    var cooldown = reconciler.status().cooldowns().getFirst();
    assertEquals("default-full", cooldown.nodeClaim());
    assertEquals(1, cooldown.failures(), "the second try is still waiting for a Retry");
  }

  @Test
  void aReplacementOfANodePoolThatAsksForApprovalWaitsForIt() {
    var base = Fixtures.command("default-gated", "replace", null);
    var gated = new DisruptionCommand(base.nodeClaim(), base.nodeName(), base.nodePool(), base.instanceId(), base.method(),
        base.reason(), base.detail(), base.podCount(), base.terminationGracePeriodSeconds(), base.instanceType(),
        base.capacityType(), true);
    test.planning.onPlanDisruption(request -> new DisruptionPlan(0, List.of(gated),
        List.of(new CandidateDecision("default-gated", "node-default-gated", "default", true, "drifted"))));
    start(new ReconcilerSettings(60_000, 100_000, 10_000, new LaunchSettings(120, 120), 2, 30));

    test.sleep(Duration.ofSeconds(30));

    var replacement = test.existing(dev.farrier.workflows.replacement.NodeReplacementWorkflow.class,
        WorkflowIds.disruption("default-gated"));
    assertEquals("AwaitingApproval", replacement.progress().phase());
    assertEquals(0, test.journal.count("cordon node-default-gated"), "not cordoned before a person approves");
  }

  @Test
  void aStaticNodePoolShortOfItsReplicasGetsOneScaleUpAtATimeNeverASecondWhileTheFirstRuns() {
    // Every round says static NodePool "fixed" lacks a node; its scale-up's launch stays uninitialized until released.
    DisruptionPlan shortOfOne = new DisruptionPlan(0, List.of(), List.of(), 0, List.of("fixed"), java.util.Map.of());
    test.planning.onPlanDisruption(request -> shortOfOne);
    test.planning.onPlanProvisioning(request -> request.staticPools()
        ? new ProvisioningPlan(List.of(Fixtures.claim("fixed-static-0", "fixed")), List.of()) : new ProvisioningPlan(List.of(), List.of()));
    AtomicBoolean initialized = new AtomicBoolean(false);
    test.nodeClaims.onAwaitInitialized(request -> {
      if (!initialized.get()) {
        throw FakeNodeClaimActivities.notYet("initialization");
      }
    });
    start(new ReconcilerSettings(60_000, 100_000, 30_000, new LaunchSettings(1800, 1800), 2, 30));

    test.sleep(Duration.ofSeconds(100)); // three rounds, each naming "fixed" short

    List<PlanProvisioningRequest> scaleUps = test.planning.provisioningRequests().stream().filter(PlanProvisioningRequest::staticPools)
        .toList();
    assertEquals(1, scaleUps.size(), "one scale-up while its launch runs: " + scaleUps);
    assertEquals(List.of(), scaleUps.getFirst().pods(), "a static scale-up is for no pod");
    assertTrue(scaleUps.getFirst().batchId().startsWith(WorkflowIds.staticProvisioning(Fixtures.CLUSTER) + "/"),
        scaleUps.getFirst().batchId());
    assertEquals(1, test.journal.count("createNodeClaim fixed-static-0"));

    initialized.set(true);
    test.sleep(Duration.ofMinutes(10)); // the launch's next look at initialization, then a round

    assertTrue(test.planning.provisioningRequests().stream().filter(PlanProvisioningRequest::staticPools).count() >= 2,
        "once it closed, the next round short of a node starts the next one");
  }
}
