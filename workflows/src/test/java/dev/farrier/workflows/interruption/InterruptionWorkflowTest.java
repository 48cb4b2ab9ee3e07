package dev.farrier.workflows.interruption;

import static dev.farrier.workflows.activities.InterruptionKind.RebalanceRecommendation;
import static dev.farrier.workflows.activities.InterruptionKind.SpotInterruption;
import static dev.farrier.workflows.testing.FakeInterruptionActivities.notice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.workflows.activities.ReceivedInterruptions;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.model.ReplacementResult;
import dev.farrier.workflows.testing.Eventually;
import dev.farrier.workflows.testing.FakeNodeActivities;
import dev.farrier.workflows.testing.FakeNodeClaimActivities;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InterruptionWorkflowTest {
  private static final String QUEUE = "http://127.0.0.1:5000/123456789012/farrier-interruption";
  private static final String ID = WorkflowIds.interruption(QUEUE);
  private static final ReconcilerSettings SETTINGS = new ReconcilerSettings(1000, 10_000, 10_000, Fixtures.LAUNCH, 1, 1);

  private final FarrierTestEnvironment test = new FarrierTestEnvironment();

  @AfterEach
  void close() {
    try {
      WorkflowStub.fromTyped(test.existing(InterruptionWorkflow.class, ID)).terminate("test over");
    } catch (RuntimeException notStarted) {
      // the test never started it
    }
    test.close();
  }

  private InterruptionWorkflow startPolling(int maxPollsPerRun) {
    test.start();
    WorkflowClient.start(test.newWorkflow(InterruptionWorkflow.class, ID)::run,
        new InterruptionInput(Fixtures.CLUSTER, QUEUE, SETTINGS, InterruptionCounts.ZERO, maxPollsPerRun));
    return test.existing(InterruptionWorkflow.class, ID);
  }

  private void awaitDeleted(String receiptHandle) {
    Eventually.await("message " + receiptHandle + " deleted", () -> test.journal.all(),
        calls -> calls.stream().anyMatch(c -> c.startsWith("deleteMessages") && c.contains(receiptHandle)));
  }

  private ReplacementResult replacementResult(String nodeClaim) {
    return WorkflowStub.fromTyped(test.existing(NodeReplacementWorkflow.class, WorkflowIds.disruption(nodeClaim)))
        .getResult(ReplacementResult.class);
  }

  @Test
  void aSpotInterruptionWarningStartsAReplacementThatDrainsAtOnce() {
    AtomicBoolean initialized = new AtomicBoolean();
    AtomicBoolean drainedBeforeInitialized = new AtomicBoolean();
    test.nodes.onDrainStep(r -> {
      drainedBeforeInitialized.set(!initialized.get());
      return FakeNodeActivities.drained(List.of("default/web-1"));
    });
    test.nodeClaims.onAwaitInitialized(r -> {
      if (!drainedBeforeInitialized.get()) {
        throw FakeNodeClaimActivities.notYet("initialization");
      }
      initialized.set(true);
    });
    test.interruption.deliver(new ReceivedInterruptions(List.of(notice(SpotInterruption, "default-a")), 0, 0));
    InterruptionWorkflow poller = startPolling(0);

    awaitDeleted("rh-default-a-SpotInterruption");
    ReplacementResult result = replacementResult("default-a");

    assertEquals("Done", result.outcome());
    assertTrue(drainedBeforeInitialized.get(), "drained while the replacement was still launching");
    assertNotNull(result.replacementNode(), "the replacement launched in parallel is collected");
    assertEquals(1, test.journal.count("markUnavailable m5.large us-west-2a spot"));
    assertTrue(test.nodes.events().stream().anyMatch(e -> e.reason().equals("Interrupted")
        && e.name().equals("node-default-a") && e.message().startsWith("SpotInterruption")), "" + test.nodes.events());
    InterruptionCounts counts = poller.status().counts();
    assertEquals(1, counts.notices());
    assertEquals(1, counts.replacementsStarted());
    assertEquals(0, counts.escalated());
  }

  @Test
  void aRunningReplacementIsEscalatedNotStartedTwice() {
    AtomicBoolean drained = new AtomicBoolean();
    test.nodes.onDrainStep(r -> {
      drained.set(true);
      return FakeNodeActivities.drained(List.of());
    });
    // Initialization never comes until the node was drained: only an escalated replacement can finish.
    test.nodeClaims.onAwaitInitialized(r -> {
      if (!drained.get()) {
        throw FakeNodeClaimActivities.notYet("initialization");
      }
    });
    InterruptionWorkflow poller = startPolling(0);
    WorkflowClient.start(test.newWorkflow(NodeReplacementWorkflow.class, WorkflowIds.disruption("default-b"))::replace,
        Fixtures.replacement(Fixtures.command("default-b", "replace", null)));
    Eventually.await("the planned replacement launching", () -> test.journal.countStartingWith("awaitInitialized"), n -> n > 0);

    test.interruption.deliver(new ReceivedInterruptions(List.of(notice(SpotInterruption, "default-b")), 0, 0));
    awaitDeleted("rh-default-b-SpotInterruption");

    assertEquals("Done", replacementResult("default-b").outcome());
    InterruptionCounts counts = poller.status().counts();
    assertEquals(0, counts.replacementsStarted());
    assertEquals(1, counts.escalated());
    assertEquals(1, test.journal.count("taintDisrupted node-default-b"), "one replacement of the node");
  }

  @Test
  void aRebalanceRecommendationOnlyRecordsAnEventWithoutTheNodePoolsOptIn() {
    InterruptionWorkflow poller = startPolling(0);
    test.interruption.deliver(new ReceivedInterruptions(List.of(notice(RebalanceRecommendation, "default-c")), 0, 0));

    awaitDeleted("rh-default-c-RebalanceRecommendation");

    assertThrows(RuntimeException.class, () -> test.client().newUntypedWorkflowStub(WorkflowIds.disruption("default-c")).describe(),
        "no replacement started");
    List<EventRequest> events = test.nodes.events();
    assertTrue(events.stream().anyMatch(e -> e.reason().equals("RebalanceRecommendation") && e.name().equals("node-default-c")
        && e.message().contains("not replaced")), "" + events);
    assertEquals(0, test.journal.countStartingWith("markUnavailable"), "only a spot interruption takes the offering back");
    assertEquals(1, poller.status().counts().rebalanceEvents());
  }

  @Test
  void aRebalanceRecommendationMarksTheNodeForThePlannerWhenTheNodePoolOptsInAndStartsNothing() {
    test.interruption.rebalanceOptIn.add("default");
    InterruptionWorkflow poller = startPolling(0);
    test.interruption.deliver(new ReceivedInterruptions(List.of(notice(RebalanceRecommendation, "default-d")), 0, 0));

    awaitDeleted("rh-default-d-RebalanceRecommendation");

    assertEquals(1, test.journal.countStartingWith("markRebalanceRecommended node-default-d"), test.journal.steps().toString());
    assertEquals(0, test.journal.countStartingWith("taintDisrupted"),
        "a rebalance is voluntary: the planner replaces it within budgets and do-not-disrupt, not this workflow");
    assertEquals(0, poller.status().counts().replacementsStarted());
    assertEquals(1, poller.status().counts().rebalanceEvents());
    assertTrue(test.nodes.events().stream().anyMatch(e -> e.reason().equals("RebalanceRecommendation") && e.message().contains("opted in")));
  }

  @Test
  void noticesForInstancesFarrierDidNotLaunchAreDeletedAndNothingIsTouched() {
    test.interruption.notFarriers.add("i-foreign");
    InterruptionWorkflow poller = startPolling(0);
    test.interruption.deliver(new ReceivedInterruptions(List.of(notice(SpotInterruption, "foreign")), 2, 1));

    awaitDeleted("rh-foreign-SpotInterruption");

    assertEquals(0, test.journal.countStartingWith("taintDisrupted"));
    assertEquals(0, test.journal.countStartingWith("markUnavailable"));
    InterruptionCounts counts = poller.status().counts();
    assertEquals(1, counts.notFarriers());
    assertEquals(2, counts.malformed());
    assertEquals(1, counts.ignored());
    assertEquals(0, counts.replacementsStarted());
  }

  @Test
  void continuesAsNewAndKeepsPollingWithItsCounts() {
    InterruptionWorkflow poller = startPolling(3);
    test.interruption.deliver(new ReceivedInterruptions(List.of(), 1, 0));
    String firstRun = WorkflowStub.fromTyped(poller).getExecution().getRunId();
    Eventually.await("several runs of polls", () -> test.interruption.polls.get(), n -> n > 10);

    test.interruption.deliver(new ReceivedInterruptions(List.of(notice(SpotInterruption, "default-e")), 0, 0));
    awaitDeleted("rh-default-e-SpotInterruption");

    String currentRun = test.client().newUntypedWorkflowStub(ID).describe().getExecution().getRunId();
    assertNotEquals(firstRun, currentRun, "continued as new");
    InterruptionCounts counts = test.existing(InterruptionWorkflow.class, ID).status().counts();
    assertEquals(1, counts.malformed(), "carried across runs");
    assertEquals(1, counts.replacementsStarted());
    assertFalse(test.client().newUntypedWorkflowStub(ID).describe().getStatus().name().contains("COMPLETED"));
  }
}
