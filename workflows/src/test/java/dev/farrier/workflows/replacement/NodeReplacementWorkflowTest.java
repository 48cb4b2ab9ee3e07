package dev.farrier.workflows.replacement;

import dev.farrier.model.ReplacementResult;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.workflows.activities.DrainRequest;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.model.ReplacementPlan;
import dev.farrier.workflows.testing.Eventually;
import dev.farrier.workflows.testing.FakeNodeActivities;
import dev.farrier.workflows.testing.FakeNodeClaimActivities;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.api.enums.v1.EventType;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowStub;
import io.temporal.client.WorkflowException;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/** Runs alone (the module's other test classes run at once): two tests read the workflow's logger, which all share. */
@Isolated
class NodeReplacementWorkflowTest {
  private static final String OLD = "default-old";
  private static final String OLD_NODE = "node-default-old";
  private static final String ID = WorkflowIds.disruption(OLD);

  private final FarrierTestEnvironment test = new FarrierTestEnvironment();

  private final Logger workflowLogger = (Logger) LoggerFactory.getLogger(NodeReplacementWorkflowImpl.class);
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

  @AfterEach
  void close() {
    workflowLogger.detachAppender(logs);
    test.close();
  }

  private ReplacementResult replace(DisruptionCommand command) {
    return test.newWorkflow(NodeReplacementWorkflow.class, ID).replace(Fixtures.replacement(command));
  }

  private NodeReplacementWorkflow running() {
    return test.existing(NodeReplacementWorkflow.class, ID);
  }

  /**
   * An operator's {@code Abort}, sent from a step's fake, which may be called again (a retried step): the abort already
   * rolling it back refuses a second, and a replacement that has ended takes none.
   */
  private void abort(String reason) {
    try {
      running().abortReplacement(OperatorRequest.of(reason));
    } catch (WorkflowException refusedOrEnded) {
      // The first abort is the one the test is about.
    }
  }

  @Test
  void replacesInOrderAndCordonsOnlyAfterTheReplacementIsInitialized() {
    test.nodes.onDrainStep(request -> FakeNodeActivities.drained(List.of("default/web-1")));
    ListAppender<ILoggingEvent> logs = captureLogs();
    test.start();

    ReplacementResult result = replace(Fixtures.command(OLD, "replace", null));

    assertEquals("Done", result.outcome());
    String r = result.replacementNodeClaim();
    assertNotNull(r);
    assertEquals("node-" + r, result.replacementNode());
    assertEquals(1, result.evictedPods());
    assertEquals(List.of(
        "taintDisrupted " + OLD_NODE,
        "planReplacement " + OLD,
        "createNodeClaim " + r,
        "launchInstance " + r,
        "awaitRegistered " + r,
        "registerNode " + r + " node-" + r,
        "awaitInitialized " + r,
        "cordon " + OLD_NODE,
        "drainStep " + OLD_NODE + " evict",
        "terminateInstance " + OLD + " i-" + OLD,
        "awaitInstanceTerminated " + OLD + " i-" + OLD,
        "deleteNode " + OLD_NODE,
        "deleteNodeClaim " + OLD), test.journal.steps());
    assertEquals(List.of("DisruptionStarted", "DisruptionTainted", "Cordoned", "Evicted", "Terminated"), nodeEventReasons());
    assertTrue(test.nodes.events().stream().anyMatch(e -> e.message().equals("evicted default/web-1")));

    ILoggingEvent decision = logs.list.stream()
        .filter(e -> e.getFormattedMessage().startsWith("disrupting nodeclaim(s)")).findFirst().orElseThrow();
    assertEquals("disrupting nodeclaim(s) via replace, terminating 1 nodes (3 pods) " + OLD_NODE
        + "/m5.large/on-demand and replacing with on-demand node from types m5.large, m5a.large, m6i.large, "
        + "c5.xlarge, c6i.xlarge and 2 other(s)", decision.getFormattedMessage());
    assertEquals("drifted", decision.getMDCPropertyMap().get("reason"));
  }

  @Test
  void deleteMethodLaunchesNothing() {
    ListAppender<ILoggingEvent> logs = captureLogs();
    test.start();

    ReplacementResult result = replace(Fixtures.command(OLD, "delete", null));

    assertEquals("Done", result.outcome());
    assertNull(result.replacementNodeClaim());
    assertEquals(0, test.journal.countStartingWith("planReplacement"));
    assertEquals(0, test.journal.countStartingWith("createNodeClaim"));
    assertTrue(logs.list.stream().anyMatch(e -> e.getFormattedMessage().equals(
        "disrupting nodeclaim(s) via delete, terminating 1 nodes (3 pods) " + OLD_NODE + "/m5.large/on-demand")));
  }

  private static DisruptionCommand emptyNode() {
    var c = Fixtures.command(OLD, "delete", null);
    return new DisruptionCommand(c.nodeClaim(), c.nodeName(), c.nodePool(), c.instanceId(), c.method(), "empty",
        "no pods to reschedule and consolidateAfter 30s passed", 0, null, c.instanceType(), c.capacityType());
  }

  @Test
  void aConsolidationIsCheckedAgainAfterAMomentBeforeTheNodeIsTouched() {
    test.start();
    long started = test.env.currentTimeMillis();

    ReplacementResult result = replace(emptyNode());

    assertEquals("Done", result.outcome());
    List<String> steps = test.journal.steps();
    assertEquals("recheckDisruption " + OLD + " empty", steps.getFirst(), steps.toString());
    assertEquals("taintDisrupted " + OLD_NODE, steps.get(1));
    assertTrue(test.env.currentTimeMillis() - started >= ReplacementSteps.CONSOLIDATION_RECHECK_DELAY.toMillis());
  }

  @Test
  void aConsolidationNoLongerValidLeavesTheNodeUntouchedAndSaysWhy() {
    test.planning.onRecheckDisruption(r -> new dev.farrier.model.CandidateDecision(r.nodeClaim(), OLD_NODE, "default",
        false, "not drifted; not empty: 1 pod would need a new home"));
    test.start();

    ReplacementResult result = replace(emptyNode());

    assertEquals("Invalidated", result.outcome());
    assertEquals(List.of("recheckDisruption " + OLD + " empty"), test.journal.steps());
    assertEquals(List.of("DisruptionInvalidated"), nodeEventReasons());
    assertTrue(test.nodes.events().stream().anyMatch(e -> e.message().equals(
        "empty consolidation cancelled: not drifted; not empty: 1 pod would need a new home")));
  }

  @Test
  void aMultiNodeConsolidationIsCheckedAndPlannedWithTheClaimsItWasDecidedWith() {
    List<Object> seen = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    test.planning.onRecheckDisruption(r -> {
      seen.add(r.consolidatedWith());
      return new dev.farrier.model.CandidateDecision(r.nodeClaim(), OLD_NODE, "default", true, "underutilized");
    });
    var defaultPlan = test.planning.planReplacementBehaviour();
    test.planning.onPlanReplacement(r -> {
      seen.add(r.consolidatedWith());
      seen.add(r.maxPricePerHour());
      return defaultPlan.apply(r);
    });
    test.start();
    var c = Fixtures.command(OLD, "replace", null);
    var group = new DisruptionCommand(c.nodeClaim(), c.nodeName(), c.nodePool(), c.instanceId(), c.method(), "underutilized",
        "multi-node: replace 3 nodes", 2, null, c.instanceType(), c.capacityType(), false, false, 0.576, List.of("b", "c"));

    assertEquals("Done", replace(group).outcome());
    assertEquals(List.of(List.of("b", "c"), List.of("b", "c"), 0.576), seen);
  }

  @Test
  void driftIsNotCheckedAgain() {
    test.start();
    replace(Fixtures.command(OLD, "delete", null));
    assertEquals(0, test.journal.countStartingWith("recheckDisruption"));
  }

  @Test
  void reportsThePdbThatBlocksTheDrainThenCompletes() {
    AtomicInteger passes = new AtomicInteger();
    AtomicReference<ReplacementProgress> seenWhileBlocked = new AtomicReference<>();
    List<String> pods = List.of("default/web-1", "default/web-2");
    test.nodes.onDrainStep(request -> {
      int pass = passes.incrementAndGet();
      if (pass == 3) {
        seenWhileBlocked.set(running().progress()); // the workflow waits for this pass: its state is pass 2's
      }
      return pass < 4 ? FakeNodeActivities.blockedByPdb(pods, "default/web-pdb") : FakeNodeActivities.drained(pods);
    });
    test.start();

    ReplacementResult result = replace(Fixtures.command(OLD, "replace", null));

    ReplacementProgress blocked = seenWhileBlocked.get();
    assertEquals("Draining", blocked.phase());
    assertEquals("PodDisruptionBudget default/web-pdb", blocked.blockedBy());
    assertEquals(pods, blocked.podsLeft());
    assertEquals(List.of(), blocked.evicted());
    assertEquals("Done", result.outcome());
    assertEquals(2, result.evictedPods());
    assertEquals(4, passes.get());
    List<EventRequest> drainBlocked = test.nodes.events().stream().filter(e -> e.reason().equals("DrainBlocked") && e.kind().equals("Node")).toList();
    assertEquals(1, drainBlocked.size(), "one Event per blocker, not one per pass");
    assertEquals("Warning", drainBlocked.getFirst().type());
    assertTrue(drainBlocked.getFirst().message().contains("default/web-pdb"));
  }

  @Test
  void bypassesPdbsOnceTheTerminationGracePeriodHasExpired() {
    test.nodes.onDrainStep(request -> request.bypassPdb()
        ? FakeNodeActivities.drained(List.of("default/web-1"))
        : FakeNodeActivities.blockedByPdb(List.of("default/web-1"), "default/web-pdb"));
    test.start();

    ReplacementResult result = replace(Fixtures.command(OLD, "replace", 60L));

    assertEquals("Done", result.outcome());
    List<Boolean> bypass = test.nodes.drainRequests().stream().map(DrainRequest::bypassPdb).toList();
    assertTrue(bypass.size() > 2, "several evicting passes before the grace period ends: " + bypass);
    assertTrue(bypass.getLast(), "the pass after the grace period bypasses PDBs");
    assertFalse(bypass.subList(0, bypass.size() - 1).contains(true), "no bypass before it ends: " + bypass);
  }

  @Test
  void pauseHoldsTheDrainUntilResumed() {
    AtomicInteger passes = new AtomicInteger();
    test.nodes.onDrainStep(request -> {
      if (passes.incrementAndGet() == 1) {
        running().pauseReplacement(OperatorRequest.of("look first"));
        return FakeNodeActivities.blockedByPdb(List.of("default/web-1"), "default/web-pdb");
      }
      return FakeNodeActivities.drained(List.of("default/web-1"));
    });
    test.start();
    NodeReplacementWorkflow workflow = test.newWorkflow(NodeReplacementWorkflow.class, ID);
    WorkflowClient.start(workflow::replace, Fixtures.replacement(Fixtures.command(OLD, "replace", null)));

    Eventually.await("paused after the first drain pass", () -> running().progress(), p -> p.paused() && passes.get() == 1);
    test.sleep(Duration.ofHours(1));

    assertEquals(1, passes.get(), "no drain pass while paused");
    assertEquals("Draining", running().progress().phase());
    running().resumeReplacement(OperatorRequest.of(null));
    ReplacementResult result = WorkflowStub.fromTyped(workflow).getResult(ReplacementResult.class);
    assertEquals("Done", result.outcome());
    assertEquals(2, passes.get());
  }

  @Test
  void abortWhileLaunchingRemovesTheUnusedReplacementAndUntaints() {
    test.nodeClaims.onAwaitInitialized(request -> {
      abort("change freeze");
      throw FakeNodeClaimActivities.notYet("initialization");
    });
    test.start();

    ReplacementResult result = replace(Fixtures.command(OLD, "replace", null));

    assertEquals("Aborted", result.outcome());
    assertNull(result.replacementNodeClaim(), "the replacement was removed");
    String r = test.journal.matching(c -> c.startsWith("createNodeClaim ")).getFirst().substring("createNodeClaim ".length());
    assertEquals(1, test.journal.count("terminateInstance " + r + " i-" + r), "unused replacement terminated");
    assertEquals(1, test.journal.count("deleteNodeClaim " + r));
    assertEquals(1, test.journal.count("untaintDisrupted " + OLD_NODE));
    assertEquals(1, test.journal.count("markAborted " + OLD_NODE));
    assertEquals(0, test.journal.countStartingWith("uncordon"), "never cordoned, so not uncordoned");
    assertEquals(0, test.journal.countStartingWith("cordon"));
    assertEquals(0, test.journal.count("terminateInstance " + OLD + " i-" + OLD), "the old node stays");
    assertTrue(nodeEventReasons().contains("ReplacementAborted"));
  }

  /** The steps of the child launch an abort can arrive in. */
  enum LaunchStep { CREATE_NODE_CLAIM, LAUNCH_INSTANCE, AWAIT_REGISTERED, REGISTER_NODE, AWAIT_INITIALIZED }

  /**
   * Each step's fake sends the abort and returns only once the cancellation has reached the child while the step still
   * runs. Returning at once would race the time-skipping test server: a cancel of an activity that completed while the
   * child's workflow task ran is refused there (ACTIVITY_UNKNOWN, temporalio/sdk-java#2391) and the child hangs; a real
   * server accepts it.
   */
  @ParameterizedTest
  @EnumSource(LaunchStep.class)
  @Timeout(60)
  void anAbortAtAnyStepOfTheLaunchRollsTheReplacementBackAndUntaints(LaunchStep step) {
    switch (step) {
      case CREATE_NODE_CLAIM -> test.nodeClaims.onCreateNodeClaim(request -> abortAndAwaitCancellation(request.name()));
      case LAUNCH_INSTANCE -> test.nodeClaims.onLaunchInstance(ref -> {
        abortAndAwaitCancellation(ref.nodeClaim());
        return FakeNodeClaimActivities.launched(ref);
      });
      case AWAIT_REGISTERED -> test.nodeClaims.onAwaitRegistered(request -> {
        abortAndAwaitCancellation(request.nodeClaim());
        return FakeNodeClaimActivities.nodeNameOf(request.nodeClaim());
      });
      case REGISTER_NODE -> test.nodeClaims.onRegisterNode(request -> abortAndAwaitCancellation(request.nodeClaim()));
      case AWAIT_INITIALIZED -> test.nodeClaims.onAwaitInitialized(request -> {
        abortAndAwaitCancellation(request.nodeClaim());
        throw FakeNodeClaimActivities.notYet("initialization");
      });
    }
    test.start();

    ReplacementResult result = replace(Fixtures.command(OLD, "replace", null));

    assertEquals("Aborted", result.outcome());
    assertNull(result.replacementNodeClaim(), "the replacement was removed");
    String r = test.journal.matching(c -> c.startsWith("createNodeClaim ")).getFirst().substring("createNodeClaim ".length());
    long launched = test.journal.countStartingWith("launchInstance " + r);
    assertEquals(step == LaunchStep.CREATE_NODE_CLAIM ? 0 : 1, launched, "nothing launched after the abort");
    assertEquals(launched, test.journal.countStartingWith("terminateInstance " + r + " "), "a launched instance is terminated");
    assertEquals(1, test.journal.count("deleteNodeClaim " + r), "the replacement's claim deleted");
    assertEquals(1, test.journal.count("untaintDisrupted " + OLD_NODE));
    assertEquals(1, test.journal.count("markAborted " + OLD_NODE));
    assertEquals(0, test.journal.countStartingWith("cordon"));
    assertEquals(0, test.journal.count("terminateInstance " + OLD + " i-" + OLD), "the old node stays");
  }

  private void abortAndAwaitCancellation(String replacement) {
    abort("early");
    Eventually.await("the abort cancels the step of launch/" + replacement,
        () -> test.client().fetchHistory(WorkflowIds.launch(replacement)).getEvents().stream()
            .anyMatch(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED),
        cancelled -> cancelled);
  }

  @Test
  void abortWhileDrainingUncordonsAndKeepsTheInitializedReplacement() {
    test.nodes.onDrainStep(request -> {
      abort("wrong nodepool");
      return FakeNodeActivities.blockedByPdb(List.of("default/web-1"), "default/web-pdb");
    });
    test.start();

    ReplacementResult result = replace(Fixtures.command(OLD, "replace", null));

    assertEquals("Aborted", result.outcome());
    String r = result.replacementNodeClaim();
    assertNotNull(r, "an initialized replacement is kept as capacity");
    List<String> steps = test.journal.steps();
    assertEquals(List.of("untaintDisrupted " + OLD_NODE, "uncordon " + OLD_NODE, "markAborted " + OLD_NODE),
        steps.subList(steps.size() - 3, steps.size()));
    assertEquals(0, test.journal.countStartingWith("terminateInstance"));
    assertEquals(0, test.journal.countStartingWith("deleteNodeClaim"));
    assertEquals(1, test.journal.countStartingWith("drainStep"));
  }

  @Test
  void anAbortLeavesAnOperatorsCordonInPlace() {
    test.nodes.cordonedByOperator().onDrainStep(request -> {
      abort("changed my mind");
      return FakeNodeActivities.blockedByPdb(List.of("default/web-1"), "default/web-pdb");
    });
    test.start();

    ReplacementResult result = replace(Fixtures.command(OLD, "replace", null));

    assertEquals("Aborted", result.outcome());
    assertEquals(1, test.journal.count("untaintDisrupted " + OLD_NODE));
    assertEquals(0, test.journal.countStartingWith("uncordon"), "the node was cordoned before the replacement: it stays so");
  }

  @Test
  void aFailedReplacementLaunchUntaintsAndFailsClearly() {
    test.nodeClaims.onLaunchInstance(ref -> {
      throw ApplicationFailure.newNonRetryableFailure("no capacity", FailureTypes.INSUFFICIENT_CAPACITY);
    });
    test.start();

    var failure = assertThrows(WorkflowFailedException.class, () -> replace(Fixtures.command(OLD, "replace", null)));

    ApplicationFailure cause = assertInstanceOf(ApplicationFailure.class, failure.getCause());
    assertEquals(FailureTypes.REPLACEMENT_LAUNCH_FAILED, cause.getType());
    assertTrue(cause.getOriginalMessage().contains("for node " + OLD_NODE + " failed to launch"), cause.getOriginalMessage());
    assertTrue(cause.getOriginalMessage().contains("InsufficientCapacity"), cause.getOriginalMessage());
    assertTrue(cause.getOriginalMessage().contains("node untainted"), cause.getOriginalMessage());
    assertEquals(1, test.journal.count("untaintDisrupted " + OLD_NODE));
    assertEquals(0, test.journal.countStartingWith("cordon"));
    assertEquals(0, test.journal.countStartingWith("drainStep"));
  }

  @Test
  void aDrainBlockedForDaysContinuesAsNewAndStillFinishesOnce() {
    int blockedPasses = Drain.MAX_DRAIN_PASSES_PER_RUN + 10;
    AtomicInteger passes = new AtomicInteger();
    test.nodes.onDrainStep(request -> {
      int pass = passes.incrementAndGet();
      if (pass == 1) {
        return new DrainStatus(List.of("default/web-0"), List.of("default/web-1"), List.of("default/web-pdb"), List.of());
      }
      return pass <= blockedPasses ? FakeNodeActivities.blockedByPdb(List.of("default/web-1"), "default/web-pdb")
          : FakeNodeActivities.drained(List.of("default/web-1"));
    });
    test.start();
    NodeReplacementWorkflow workflow = test.newWorkflow(NodeReplacementWorkflow.class, ID);
    WorkflowClient.start(workflow::replace, Fixtures.replacement(Fixtures.command(OLD, "replace", null)));
    String firstRun = WorkflowStub.fromTyped(workflow).getExecution().getRunId();

    ReplacementResult result = test.client().newUntypedWorkflowStub(ID).getResult(ReplacementResult.class);

    assertEquals("Done", result.outcome());
    assertEquals(2, result.evictedPods(), "the pod evicted before continuing as new is still counted");
    var firstHistory = test.client().fetchHistory(ID, firstRun);
    assertEquals(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW,
        firstHistory.getLastEvent().getEventType(), "a long drain does not grow one history without bound");
    assertEquals(1, test.journal.countStartingWith("taintDisrupted"), "the new run resumes draining, it does not start over");
    assertEquals(1, test.journal.countStartingWith("cordon"));
    assertEquals(1, test.journal.countStartingWith("createNodeClaim"));
    assertEquals(1, test.journal.countStartingWith("terminateInstance " + OLD));
  }

  @Test
  void noPossibleReplacementLeavesTheNodeInServiceInsteadOfDraining() {
    test.planning.onPlanReplacement(request -> new ReplacementPlan(null, 3, "nodepool default: cpu limit 4 reached"));
    test.start();

    var failure = assertThrows(WorkflowFailedException.class, () -> replace(Fixtures.command(OLD, "replace", null)));

    ApplicationFailure cause = assertInstanceOf(ApplicationFailure.class, failure.getCause());
    assertEquals(FailureTypes.NO_REPLACEMENT_POSSIBLE, cause.getType());
    assertTrue(cause.getOriginalMessage().contains("cpu limit 4 reached"), cause.getOriginalMessage());
    assertTrue(cause.getOriginalMessage().contains("node untainted"), cause.getOriginalMessage());
    assertEquals(1, test.journal.count("untaintDisrupted " + OLD_NODE));
    assertEquals(0, test.journal.countStartingWith("cordon"), "never cordoned");
    assertEquals(0, test.journal.countStartingWith("drainStep"), "never drained");
    assertEquals(0, test.journal.countStartingWith("terminateInstance"));
  }

  @Test
  void anInterruptedNodeIsDrainedEvenWhenNoReplacementIsPossible() {
    test.planning.onPlanReplacement(request -> new ReplacementPlan(null, 3, "nodepool default: cpu limit 4 reached"));
    test.start();

    ReplacementResult result = test.newWorkflow(NodeReplacementWorkflow.class, ID).replace(new ReplacementInput(Fixtures.CLUSTER,
        Fixtures.command(OLD, "replace", null), Fixtures.LAUNCH, 2, 30, new Interruption("SpotInterruption", "instance-action terminate")));

    assertEquals("Done", result.outcome(), "the node goes away anyway: its pods are better off pending than killed");
    assertNull(result.replacementNodeClaim());
    assertEquals(1, test.journal.countStartingWith("drainStep"));
    assertEquals(1, test.journal.count("terminateInstance " + OLD + " i-" + OLD));
    assertEquals(List.of("DisruptionStarted", "Interrupted", "DisruptionTainted", "Cordoned", "Terminated"), nodeEventReasons());
  }

  @Test
  @org.junit.jupiter.api.Timeout(60)
  void anInterruptionLiftsAPauseAndDrainsWhileTheReplacementLaunches() {
    AtomicInteger initializedChecks = new AtomicInteger();
    AtomicReference<Boolean> drainedBeforeInitialized = new AtomicReference<>();
    test.nodes.onDrainStep(request -> {
      drainedBeforeInitialized.compareAndSet(null, initializedChecks.get() < 100);
      return FakeNodeActivities.drained(List.of("default/web-1"));
    });
    test.nodeClaims.onAwaitInitialized(request -> {
      if (initializedChecks.incrementAndGet() == 1) {
        running().pauseReplacement(OperatorRequest.of(null));
        running().interrupted(new Interruption("InstanceStateChange", "state stopping"));
      }
      if (drainedBeforeInitialized.get() == null) {
        throw FakeNodeClaimActivities.notYet("initialization");
      }
      initializedChecks.set(100);
    });
    test.start();

    ReplacementResult result = replace(Fixtures.command(OLD, "replace", null));

    assertEquals("Done", result.outcome());
    assertTrue(drainedBeforeInitialized.get(), "drained while the replacement was still launching, despite the pause");
    assertNotNull(result.replacementNode(), "the replacement launched in parallel is collected");
    assertTrue(test.nodes.events().stream().anyMatch(e -> e.reason().equals("Interrupted")
        && e.message().startsWith("InstanceStateChange: state stopping")), "" + test.nodes.events());
  }

  @Test
  @Timeout(60)
  void anInterruptedNodeWhoseInstanceIsGoneHasItsPdbHeldPodsReleasedAtOnce() {
    List<DrainRequest> passes = new java.util.concurrent.CopyOnWriteArrayList<>();
    test.nodes.onDrainStep(request -> {
      passes.add(request);
      return request.instanceGone() ? FakeNodeActivities.drained(List.of("default/web-1", "default/web-2"))
          : FakeNodeActivities.blockedByPdb(List.of("default/web-1", "default/web-2"), "default/web");
    });
    AtomicInteger checks = new AtomicInteger();
    // EC2 reclaims the instance after the second look.
    test.nodeClaims.onInstanceState(r -> new dev.farrier.workflows.activities.InstanceState(r.instanceId(),
        checks.incrementAndGet() < 2 ? "running" : "terminated"));
    test.start();

    ReplacementResult result = test.newWorkflow(NodeReplacementWorkflow.class, ID).replace(new ReplacementInput(Fixtures.CLUSTER,
        Fixtures.command(OLD, "replace", null), Fixtures.LAUNCH, 2, 30, new Interruption("SpotInterruption", "instance-action terminate")));

    assertEquals("Done", result.outcome());
    assertEquals(List.of(false, false, true), passes.stream().map(DrainRequest::instanceGone).toList(),
        "held by the PDB while the instance ran; released on the pass after it was seen gone");
    assertFalse(passes.getLast().bypassPdb(), "released because the pods are dead, not by the grace period");
    assertTrue(test.nodes.events().stream().anyMatch(e -> e.reason().equals("InstanceGone")
        && e.message().equals("instance i-" + OLD + " is gone: its 2 pod(s) are released at once, not drained")), "" + test.nodes.events());
    assertEquals(1, test.journal.count("deleteNode " + OLD_NODE), test.journal.steps().toString());
  }

  @Test
  void aDrainHeldByAPdbKeepsWaitingWhileTheInstanceRunsAndAFailedReadProvesNothing() {
    AtomicInteger passes = new AtomicInteger();
    test.nodes.onDrainStep(request -> {
      assertFalse(request.instanceGone());
      return passes.incrementAndGet() < 6 ? FakeNodeActivities.blockedByPdb(List.of("default/web-1"), "default/web")
          : FakeNodeActivities.drained(List.of("default/web-1"));
    });
    AtomicInteger checks = new AtomicInteger();
    test.nodeClaims.onInstanceState(r -> {
      if (checks.incrementAndGet() % 2 == 0) {
        throw ApplicationFailure.newNonRetryableFailure("throttled", "Throttling");
      }
      return new dev.farrier.workflows.activities.InstanceState(r.instanceId(), "running");
    });
    test.start();

    ReplacementResult result = test.newWorkflow(NodeReplacementWorkflow.class, ID).replace(new ReplacementInput(Fixtures.CLUSTER,
        Fixtures.command(OLD, "replace", null), Fixtures.LAUNCH, 2, 30, new Interruption("SpotInterruption", "instance-action terminate")));

    assertEquals("Done", result.outcome());
    assertEquals(6, passes.get(), "the PDB held it until it let go; nothing was released");
    assertTrue(checks.get() >= 2, "asked after the passes that left pods: " + checks.get());
  }

  private List<String> nodeEventReasons() {
    return test.nodes.events().stream().filter(e -> e.kind().equals("Node")).map(EventRequest::reason).toList();
  }

  private ListAppender<ILoggingEvent> captureLogs() {
    logs.start();
    workflowLogger.addAppender(logs);
    return logs;
  }
}
