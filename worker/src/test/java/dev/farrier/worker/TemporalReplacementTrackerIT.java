package dev.farrier.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.localstack.LocalStack;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.workflows.ChildWorkflowStarts;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.replacement.ReplacementPhase;
import dev.farrier.workflows.replacement.ReplacementInput;
import dev.farrier.model.ReplacementResult;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributes;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.worker.WorkerFactory;
import io.temporal.workflow.Async;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tracker against the real Temporal dev server (with Farrier's search attributes): a running replacement and one
 * that completed moments ago having replaced its node hold their claim, through both the one-claim describe and the
 * round's visibility list; a replacement that was aborted (its node left in service), closed otherwise, or long ago, or
 * of another cluster, does not.
 */
class TemporalReplacementTrackerIT {
  private static final String QUEUE = "tracker-it";

  /** The replacement's workflow type (its name is what the list filters on), with only what this test drives. */
  @WorkflowInterface
  public interface NodeReplacementWorkflow {
    @WorkflowMethod
    ReplacementResult replace(ReplacementInput input);

    @SignalMethod
    void finishReplaced();

    @SignalMethod
    void finishAborted();
  }

  /**
   * A replacement that runs until told to finish: {@code finishReplaced} ends it having replaced its node,
   * {@code finishAborted} ends it with the node left in service; each upserts its last phase as the real one does.
   */
  public static class WaitingReplacement implements NodeReplacementWorkflow {
    private ReplacementPhase last;

    @Override
    public ReplacementResult replace(ReplacementInput input) {
      Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.PHASE.valueSet(ReplacementPhase.DRAINING.label()));
      Workflow.await(() -> last != null);
      Workflow.upsertTypedSearchAttributes(FarrierSearchAttributes.PHASE.valueSet(last.label()));
      return new ReplacementResult("nc", last == ReplacementPhase.DONE ? "Done" : "Aborted", null, null, 0);
    }

    @Override
    public void finishReplaced() {
      last = ReplacementPhase.DONE;
    }

    @Override
    public void finishAborted() {
      last = ReplacementPhase.ABORTED;
    }
  }

  /** A parent that starts one replacement as the reconciler does, on a task queue no worker polls, and returns. */
  @WorkflowInterface
  public interface StartsAReplacement {
    @WorkflowMethod
    void start(String cluster, String claim);
  }

  public static class StartsAReplacementImpl implements StartsAReplacement {
    @Override
    public void start(String cluster, String claim) {
      var command = new DisruptionCommand(claim, "node-" + claim, "pool", "i-0123456789abcdef0", DisruptionMethod.REPLACE, "drifted",
          "", 1, null, "m5.large", "on-demand", false, false, null);
      NodeReplacementWorkflow child = Workflow.newChildWorkflowStub(NodeReplacementWorkflow.class,
          ChildWorkflowStarts.disruption(cluster, command).toBuilder().setTaskQueue(NOBODY_POLLS).build());
      Async.function(child::replace, new ReplacementInput(cluster, command, null, 1, 1));
      Workflow.getWorkflowExecution(child).get();
    }
  }

  private static final String NOBODY_POLLS = "tracker-it-nobody-polls";

  private static LocalStack stack;
  private static WorkflowServiceStubs stubs;
  private static WorkflowClient client;
  private static WorkerFactory workers;

  @BeforeAll
  static void start(@TempDir Path runDir) throws Exception {
    stack = LocalStack.builder().runDir(runDir).kubernetes(false).searchAttributes(LocalStack.FARRIER_SEARCH_ATTRIBUTES).start();
    stubs = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder().setTarget(stack.temporalAddress()).build());
    client = WorkflowClient.newInstance(stubs);
    workers = WorkerFactory.newInstance(client);
    workers.newWorker(QUEUE).registerWorkflowImplementationTypes(WaitingReplacement.class, StartsAReplacementImpl.class);
    workers.start();
  }

  @AfterAll
  static void stop() {
    workers.shutdownNow();
    stubs.shutdownNow();
    stack.close();
  }

  private static NodeReplacementWorkflow replace(String cluster, String claim) {
    return replace(SearchAttributes.newBuilder().set(FarrierSearchAttributes.CLUSTER, cluster).build(), cluster, claim);
  }

  /** A replacement of a node of {@code pool}, for {@code reason}, as the reconciler or a rollout starts one. */
  private static NodeReplacementWorkflow replace(String cluster, String claim, String pool, String reason) {
    return replace(SearchAttributes.newBuilder().set(FarrierSearchAttributes.CLUSTER, cluster)
        .set(FarrierSearchAttributes.NODE_POOL, pool).set(FarrierSearchAttributes.REASON, reason).build(), cluster, claim);
  }

  private static NodeReplacementWorkflow replace(SearchAttributes attributes, String cluster, String claim) {
    var stub = client.newWorkflowStub(NodeReplacementWorkflow.class, WorkflowOptions.newBuilder()
        .setWorkflowId(WorkflowIds.disruption(claim)).setTaskQueue(QUEUE).setTypedSearchAttributes(attributes).build());
    WorkflowClient.start(stub::replace, new ReplacementInput(cluster, null, null, 1, 1));
    return stub;
  }

  private static void finish(NodeReplacementWorkflow stub, String claim) {
    stub.finishReplaced();
    client.newUntypedWorkflowStub(WorkflowIds.disruption(claim)).getResult(ReplacementResult.class);
  }

  /** Visibility is eventually consistent: wait for it (the bound only stops a hung test). */
  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(200);
    }
  }

  @Test
  void runningAndJustCompletedReplacementsHoldTheirClaimOthersDoNot() throws Exception {
    var tracker = new TemporalReplacementTracker(client, "prod");
    assertFalse(tracker.active("never-replaced"), "no workflow: a taint would be stale");

    var running = replace("prod", "running");
    var done = replace("prod", "done");
    replace("prod", "terminated");
    var other = replace("staging", "elsewhere");
    var aborted = replace("prod", "aborted");
    finish(done, "done");
    aborted.finishAborted();
    client.newUntypedWorkflowStub(WorkflowIds.disruption("aborted")).getResult(ReplacementResult.class);
    client.newUntypedWorkflowStub(WorkflowIds.disruption("terminated")).terminate("test");

    assertTrue(tracker.active("running"));
    assertTrue(tracker.active("done"), "completed moments ago: its node may still be in the snapshot");
    assertFalse(tracker.active("terminated"), "terminated: its taint is stale and the node is planned again");
    assertFalse(tracker.active("aborted"), "aborted moments ago: its node is back in service, nothing holds it");
    await("the list shows the running and the just-completed replacement",
        () -> tracker.active().contains("running") && tracker.active().contains("done"));
    assertFalse(tracker.active().contains("terminated"));
    assertFalse(tracker.active().contains("aborted"), "an aborted replacement takes no budget and holds no rollout");
    assertFalse(tracker.active().contains("elsewhere"), "another cluster's replacement");

    var later = new TemporalReplacementTracker(client, "prod",
        Clock.offset(Clock.systemUTC(), TemporalReplacementTracker.JUST_COMPLETED.plusMinutes(1)));
    assertFalse(later.active("done"), "completed long ago");
    assertFalse(later.active().contains("done"));
    assertTrue(later.active().contains("running"));

    finish(running, "running");
    finish(other, "elsewhere");
  }

  /**
   * The preview's estimate learns from the replacements a rollout makes: drifted nodes' replacements of the NodePools
   * that replaced their node. An empty node's deletion (it ends Done too, in another time), an aborted replacement and
   * another NodePool's are left out.
   */
  @Test
  void theReplacementHistoryIsOfTheNodePoolsDriftedReplacementsThatReplacedTheirNode() throws Exception {
    var drifted = replace("history", "hist-drifted", "web", DisruptionCommand.REASON_DRIFTED);
    var empty = replace("history", "hist-empty", "web", DisruptionCommand.REASON_EMPTY);
    var aborted = replace("history", "hist-aborted", "web", DisruptionCommand.REASON_DRIFTED);
    var otherPool = replace("history", "hist-other", "batch", DisruptionCommand.REASON_DRIFTED);
    finish(drifted, "hist-drifted");
    finish(empty, "hist-empty");
    finish(otherPool, "hist-other");
    aborted.finishAborted();
    client.newUntypedWorkflowStub(WorkflowIds.disruption("hist-aborted")).getResult(ReplacementResult.class);
    await("all four closed in the visibility list", () -> client.listExecutions(FarrierSearchAttributes.CLUSTER.getName()
        + " = 'history' AND ExecutionStatus = 'Completed'").count() == 4);

    var history = new TemporalReplacementHistory(client, "history");
    assertEquals(1, history.durationsSeconds(java.util.List.of("web")).size(), "only the drifted replacement of web");
    assertEquals(2, history.durationsSeconds(java.util.List.of("web", "batch")).size());
  }

  /**
   * A replacement counts for the budget from the moment it starts, before its first workflow task runs (a worker
   * restarting, a backlog after Temporal was down): the chaos soak's seed 1 found a NodePool over its budget when the
   * planner's next round did not see replacements started two seconds earlier whose first task had not run yet.
   */
  @Test
  void aReplacementWhoseFirstTaskHasNotRunIsActiveFromItsStart() throws Exception {
    var parent = client.newWorkflowStub(StartsAReplacement.class, WorkflowOptions.newBuilder()
        .setWorkflowId("starts-not-yet-run").setTaskQueue(QUEUE).build());
    parent.start("prod", "not-yet-run");
    var tracker = new TemporalReplacementTracker(client, "prod");
    try {
      await("the started replacement listed for its cluster", () -> tracker.active().contains("not-yet-run"));
      assertTrue(tracker.active("not-yet-run"));
      assertFalse(new TemporalReplacementTracker(client, "staging").active().contains("not-yet-run"), "another cluster's tracker");
    } finally {
      client.newUntypedWorkflowStub(WorkflowIds.disruption("not-yet-run")).terminate("test");
    }
  }

  /**
   * What a rolling rollout's follow of its carried replacements reads: nothing while one runs, its result once it has
   * completed, and why not for one terminated by hand or never started.
   */
  @Test
  void aClosedReplacementIsFoundWithItsResultOrWhyItHasNone() {
    var status = new TemporalWorkflowStatus(client);
    var running = replace("prod", "follow-running");
    replace("prod", "follow-terminated");
    client.newUntypedWorkflowStub(WorkflowIds.disruption("follow-terminated")).terminate("removed by hand");

    assertTrue(status.closedReplacement("follow-running").isEmpty(), "it runs");
    var terminated = status.closedReplacement("follow-terminated").orElseThrow();
    assertTrue(terminated.result() == null && terminated.failure().contains("terminated"), terminated.toString());
    var missing = status.closedReplacement("follow-never").orElseThrow();
    assertTrue(missing.result() == null && missing.failure().contains("not found"), missing.toString());

    finish(running, "follow-running");
    var done = status.closedReplacement("follow-running").orElseThrow();
    assertTrue(done.failure() == null && "Done".equals(done.result().outcome()), done.toString());
  }
}
