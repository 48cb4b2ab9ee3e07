package dev.farrier.workflows.upgrade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.replacement.OperatorRequest;
import dev.farrier.workflows.testing.FakeNodeClaimActivities;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowUpdateException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rollout reports Succeeded only with every node of its NodePools on its target, and an aborted rollout leaves nothing
 * the next one reads as held or in flight: the rollouts run on the real planner over {@link ModelFleet} (the fleet of
 * issue 38: two NodePools of two architectures on one EC2NodeClass), with real replacement children in Temporal's
 * time-skipping environment.
 */
class RolloutEndsOnTargetTest {
  private static final AmiTarget NEXT = AmiTarget.parse("al2023@v20251103");

  private final FarrierTestEnvironment test = new FarrierTestEnvironment();
  private final ModelFleet fleet = new ModelFleet(test);

  @AfterEach
  void close() {
    test.close();
  }

  private static UpgradeInput rollout(AmiTarget target, String kubernetesVersion, String batchSize, long soakSeconds,
      boolean approval, boolean rolling) {
    return new UpgradeInput(Fixtures.CLUSTER, List.of(), ModelFleet.NODE_CLASS, target, kubernetesVersion, batchSize, 1,
        soakSeconds, 180, approval, 0, rolling, "ci-job", null);
  }

  private static String id(UpgradeInput input) {
    return WorkflowIds.upgrade(input.nodePools(), input.nodeClass(), input.targetText());
  }

  /** Starts the rollout (as {@code farrier upgrade} does, attaching to a run of the same id); null when one ran. */
  private WorkflowExecution start(UpgradeInput input) {
    NodePoolUpgradeWorkflow workflow = test.client().newWorkflowStub(NodePoolUpgradeWorkflow.class,
        WorkflowOptions.newBuilder().setWorkflowId(id(input)).setTaskQueue(dev.farrier.workflows.TaskQueues.DEFAULT).build());
    try {
      return WorkflowClient.start(workflow::upgrade, input);
    } catch (WorkflowExecutionAlreadyStarted running) {
      return null;
    }
  }

  /** The run's result, once it has closed: waited for a simulated second at a time ({@link #within}), never blocking. */
  private UpgradeResult result(WorkflowExecution run) {
    within(7_200, () -> !running(run.getWorkflowId()));
    return test.client().newUntypedWorkflowStub(run.getWorkflowId(), java.util.Optional.of(run.getRunId()), java.util.Optional.empty())
        .getResult(UpgradeResult.class);
  }

  private NodePoolUpgradeWorkflow stub(WorkflowExecution run) {
    return test.existing(NodePoolUpgradeWorkflow.class, run.getWorkflowId());
  }

  /** Lets simulated time pass a second at a time until {@code done} (at most {@code seconds}). */
  private boolean within(long seconds, BooleanSupplier done) {
    for (long s = 0; s < seconds; s++) {
      if (done.getAsBoolean()) {
        return true;
      }
      test.sleep(Duration.ofSeconds(1));
    }
    return done.getAsBoolean();
  }

  private boolean running(String workflowId) {
    return test.running(workflowId);
  }

  /** What no workflow holds any more: no node tainted or marked by an abort, no replacement running. */
  private void assertNothingLeftInFlight() {
    for (ModelFleet.Node node : fleet.nodes()) {
      assertTrue(!node.tainted && !node.abortMarked, "left marked with no replacement running: " + fleet.nodes());
      assertTrue(!running(WorkflowIds.disruption(node.claim)), node.claim + " still being replaced");
    }
  }

  /**
   * Issue 38's sequence: a rollout to a Kubernetes version is aborted while its canary replacement launches; a rollout to
   * a new AMI started at once replaces every node, the one whose replacement the abort stopped included.
   */
  @Test
  void aRolloutStartedRightAfterAnAbortDuringTheCanaryEndsWithEveryNodeOnItsTarget() {
    var launching = new java.util.concurrent.atomic.AtomicBoolean(true);
    test.nodeClaims.onAwaitInitialized(r -> {
      if (launching.get()) {
        throw FakeNodeClaimActivities.notYet("initialized");
      }
    });
    test.start();
    UpgradeInput first = rollout(null, "1.35", "50%", 0, true, false);
    WorkflowExecution aborted = start(first);
    assertTrue(within(60, () -> test.journal.countStartingWith("launchInstance") > 0), "the canary's replacement launches");
    stub(aborted).abort(new OperatorRequest("wrong target", "ci"));
    assertEquals(UpgradeResult.ABORTED, result(aborted).outcome());
    launching.set(false);
    assertEquals(0, test.journal.countStartingWith("markAborted"), "a rollout's abort is no operator's hold on the node");
    assertNothingLeftInFlight();

    WorkflowExecution next = start(rollout(NEXT, null, "50%", 5, false, false));
    UpgradeResult result = result(next);

    assertEquals(UpgradeResult.SUCCEEDED, result.outcome(), result.cause());
    assertEquals(List.of(), fleet.offTargetNodes(ModelFleet.images(NEXT.text())), "every node on the target");
    assertEquals(5, result.replaced(), "the node whose replacement the abort stopped was replaced too");
    assertNothingLeftInFlight();
  }

  /**
   * A node the planner does not hand out but that is off target (here an operator's abort mark, set by hand) keeps the
   * rollout waiting, and the rollout says which node and why; it never reports Succeeded past it.
   */
  @Test
  void aNodeHeldByAnOperatorsAbortMarkHoldsTheRolloutInsteadOfASuccess() {
    test.start();
    fleet.nodes().stream().filter(n -> n.pool.equals(ModelFleet.ARM)).findFirst().orElseThrow().abortMarked = true;
    WorkflowExecution run = start(rollout(NEXT, null, "50%", 0, false, false));

    assertTrue(within(300, () -> fleet.offTargetNodes(ModelFleet.images(NEXT.text())).size() == 1), "all but the held node rolled");
    assertTrue(within(120, () -> String.valueOf(stub(run).progress().blocker()).contains("farrier.dev/replacement-aborted")),
        "the blocker names the hold: " + stub(run).progress());
    assertTrue(running(run.getWorkflowId()), "no success while a node is off target");

    fleet.nodes().forEach(n -> n.abortMarked = false); // the operator removes the annotation
    UpgradeResult result = result(run);
    assertEquals(UpgradeResult.SUCCEEDED, result.outcome(), result.cause());
    assertEquals(List.of(), fleet.offTargetNodes(ModelFleet.images(NEXT.text())));
  }

  /**
   * A node the cluster shows off target at the end that the planner never hands out (it does not see it drifted): the
   * rollout looks three times, rolling on between, then fails naming the node, its image and why, and rolls back.
   */
  @Test
  void aNodeStillOffTargetAtTheThirdLookFailsTheRolloutNamingIt() {
    test.rollout.onOffTarget(r -> List.of(new dev.farrier.workflows.activities.OffTargetNode("h10-x86-9", "node-h10-x86-9",
        "ami-stale", "nothing on the node or its NodeClaim holds it")));
    test.start();
    UpgradeResult result = result(start(rollout(NEXT, null, "50%", 0, false, false)));

    assertEquals(UpgradeResult.FAILED, result.outcome(), result.cause());
    assertTrue(result.cause().startsWith("1 node(s) of h10-arm, h10-x86 not on the target images"), result.cause());
    assertTrue(result.cause().contains("h10-x86-9 (node node-h10-x86-9) runs ami-stale: nothing on the node"), result.cause());
    assertEquals(TargetCheck.TARGET_CHECKS, test.journal.countStartingWith("offTarget"));
  }

  /**
   * Random sequences of rollouts started, aborted, approved and frozen at random moments, then the same command run
   * once more. Invariants: a rollout that reports Succeeded gave its NodePools back with every node on its target; once
   * every workflow has closed no node is left tainted or marked; and the last run finishes the job.
   */
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void randomStartsAbortsApprovalsAndFreezesNeverEndSucceededOffTarget(long seed) {
    Random random = new Random(seed);
    // Launches take a while (a few "not yet"s each, retried with backoff), so an abort often finds replacements in flight.
    var looks = new java.util.concurrent.ConcurrentHashMap<String, Integer>();
    test.nodeClaims.onAwaitInitialized(r -> {
      if (looks.merge(r.nodeClaim(), 1, Integer::sum) <= Math.floorMod(r.nodeClaim().hashCode() + seed, 4)) {
        throw FakeNodeClaimActivities.notYet("initialized");
      }
    });
    test.start();
    Map<String, List<WorkflowExecution>> runs = new HashMap<>();
    List<String> script = new ArrayList<>();
    UpgradeInput last = null;
    int steps = 3 + random.nextInt(3);
    for (int step = 0; step < steps; step++) {
      UpgradeInput input = random.nextBoolean() ? rollout(NEXT, null, random.nextBoolean() ? "50%" : "1", random.nextInt(2) * 5,
          random.nextBoolean(), random.nextBoolean())
          : rollout(null, random.nextBoolean() ? "1.35" : "1.36", "50%", 0, random.nextBoolean(), random.nextBoolean());
      last = input;
      if (random.nextInt(4) == 0) {
        test.rollout.freezeFor("freeze by seed " + seed, 1 + random.nextInt(3));
        script.add("freeze");
      }
      WorkflowExecution run = start(input);
      script.add("start " + input.targetText() + (input.rolling() ? " rolling" : "") + (input.approvalRequired() ? " approval" : "")
          + (run == null ? " (attached)" : ""));
      if (run == null) {
        continue;
      }
      runs.computeIfAbsent(run.getWorkflowId(), k -> new ArrayList<>()).add(run);
      int action = random.nextInt(3);
      if (input.approvalRequired() && within(300, () -> !running(run.getWorkflowId())
          || "AwaitingApproval".equals(stub(run).progress().phase()))) {
        if (running(run.getWorkflowId()) && action != 1) {
          approveQuietly(run);
          script.add("approve");
        }
      }
      if (action == 1) {
        int after = random.nextInt(12);
        within(after, () -> !running(run.getWorkflowId()));
        abortQuietly(run);
        script.add("abort after " + after + "s");
      } else if (action == 2) {
        within(600, () -> !running(run.getWorkflowId()));
      }
      int pause = random.nextInt(12);
      test.sleep(Duration.ofSeconds(pause));
      script.add("pause " + pause + "s");
    }
    // Every run ends: one that waits for an approval nobody gives is aborted.
    for (List<WorkflowExecution> ofId : runs.values()) {
      for (WorkflowExecution run : ofId) {
        if (!within(900, () -> !running(run.getWorkflowId()) || "AwaitingApproval".equals(stub(run).progress().phase()))) {
          throw new AssertionError("seed " + seed + ": " + run.getWorkflowId() + " never ended: " + script);
        }
        abortQuietly(run);
      }
    }
    for (var entry : runs.entrySet()) {
      List<Boolean> released = fleet.onTargetAtRelease(entry.getKey());
      int release = 0;
      for (WorkflowExecution run : entry.getValue()) {
        UpgradeResult outcome = outcome(run);
        if (outcome == null) {
          continue; // refused: it took nothing, so it gave nothing back
        }
        boolean onTarget = released.get(release++);
        if (UpgradeResult.SUCCEEDED.equals(outcome.outcome())) {
          assertTrue(onTarget, "seed " + seed + ": " + run.getWorkflowId() + " Succeeded with a node off target: " + script);
        }
      }
    }
    assertNothingLeftInFlight();

    UpgradeInput again = rollout(last.target(), last.kubernetesVersion(), "50%", 0, false, last.rolling());
    UpgradeResult done = result(start(again));
    assertEquals(UpgradeResult.SUCCEEDED, done.outcome(), "seed " + seed + ": " + done.cause() + " after " + script);
    List<String> target = again.target() != null ? ModelFleet.images(again.target().text())
        : ModelFleet.images("k8s-" + again.kubernetesVersion());
    assertEquals(List.of(), fleet.offTargetNodes(target), "seed " + seed + ": the same command again finishes the job: " + script);
    assertNothingLeftInFlight();
  }

  /** The run's result; null for one refused before it touched anything (another rollout owned the NodePools). */
  private UpgradeResult outcome(WorkflowExecution run) {
    try {
      return result(run);
    } catch (WorkflowFailedException refused) {
      return null;
    }
  }

  private void approveQuietly(WorkflowExecution run) {
    try {
      stub(run).approve(OperatorRequest.of(null));
    } catch (WorkflowUpdateException | WorkflowNotFoundException ended) {
      // It moved on or ended meanwhile.
    }
  }

  private void abortQuietly(WorkflowExecution run) {
    if (!running(run.getWorkflowId())) {
      return;
    }
    try {
      stub(run).abort(new OperatorRequest("random abort", "test"));
    } catch (WorkflowUpdateException | WorkflowNotFoundException refused) {
      // It was stopping already, or ended meanwhile.
    }
  }
}
