package dev.farrier.workflows.replacement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.model.ReplacementResult;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.activities.DrainRequest;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.activities.HeldPod;
import dev.farrier.workflows.activities.SurgeOutcome;
import dev.farrier.workflows.activities.SurgeOutcome.Result;
import dev.farrier.workflows.activities.SurgeRequest;
import dev.farrier.workflows.testing.Eventually;
import dev.farrier.workflows.testing.FakeNodeActivities;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.client.WorkflowClient;
import io.temporal.failure.ApplicationFailure;
import io.temporal.client.WorkflowStub;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The drain's surges on Temporal's time-skipping test environment: a pod a PDB refuses whose workload opted in is
 * handed to the surge activity (with its last answer), the blocker names the surge, a refusal keeps the drain waiting
 * for the PDB as before, and a pod that did not opt in is never surged.
 */
class SurgeWorkflowTest {
  private static final String OLD = "default-old";
  private static final String ID = WorkflowIds.disruption(OLD);
  private static final String POD = "default/web-7d9f-abcde";
  private static final String DEPLOYMENT = "default/web";
  private static final String PDB = "default/web-pdb";
  private static final List<HeldPod> HELD = List.of(new HeldPod(POD, HeldPod.Cause.PDB, PDB));

  private final FarrierTestEnvironment test = new FarrierTestEnvironment();

  @AfterEach
  void close() {
    test.close();
  }

  private static DrainStatus refused(boolean surgeable) {
    return DrainStatus.of(List.of(), List.of(POD), HELD, null, List.of(), surgeable ? List.of(POD) : List.of());
  }

  private NodeReplacementWorkflow start() {
    test.start();
    NodeReplacementWorkflow workflow = test.newWorkflow(NodeReplacementWorkflow.class, ID);
    WorkflowClient.start(workflow::replace, Fixtures.replacement(Fixtures.command(OLD, "replace", null)));
    return workflow;
  }

  private NodeReplacementWorkflow running() {
    return test.existing(NodeReplacementWorkflow.class, ID);
  }

  @Test
  void aPdbBlockedPodThatOptedInIsSurgedOnceAndTheDrainGoesOnWhenItsOldPodIsGone() {
    AtomicBoolean oldPodGone = new AtomicBoolean();
    test.nodes.onDrainStep(r -> oldPodGone.get() ? FakeNodeActivities.drained(List.of()) : refused(true));
    test.nodes.onSurge(r -> new SurgeOutcome(r.pod(), DEPLOYMENT, r.previous() == null ? Result.STARTED : Result.SURGING, null));
    NodeReplacementWorkflow workflow = start();

    ReplacementProgress surging = Eventually.await("the surge named as the blocker", () -> running().progress(),
        p -> p.blocker() != null);
    Eventually.await("a second pass asks again", () -> test.nodes.surgeRequests().size(), n -> n >= 2);

    assertEquals("surging deployment default/web: waiting for its new pod to be Ready", surging.blockedBy());
    assertEquals(Blocker.Kind.SURGE, surging.blocker().kind());
    assertEquals(List.of(PDB), surging.blocker().budgets());
    assertEquals(List.of(POD), surging.blocker().pods());
    var attributes = WorkflowStub.fromTyped(workflow).describe().getTypedSearchAttributes();
    assertEquals(surging.blockedBy(), attributes.get(FarrierSearchAttributes.BLOCKER));
    List<SurgeRequest> requests = test.nodes.surgeRequests();
    SurgeRequest first = requests.getFirst();
    assertEquals(POD, first.pod());
    assertEquals("default", first.nodePool());
    assertNull(first.previous(), "the first request knows of no surge");
    assertEquals(Result.STARTED, requests.get(1).previous().result(), "a later pass names the surge it started");
    List<String> steps = test.journal.steps();
    assertTrue(steps.indexOf("drainStep node-" + OLD + " evict") < steps.indexOf("surge " + POD),
        "surged only after a pass the PDB refused: " + steps);

    assertTrue(test.nodes.events().stream().noneMatch(e -> e.reason().equals("DrainBlocked")),
        "a surge in flight is no blocked drain: its SurgeStarted Events say it, no DrainBlocked Warning");
    oldPodGone.set(true); // the Deployment controller removed the old pod once the new one was Ready
    ReplacementResult result = WorkflowStub.fromTyped(workflow).getResult(ReplacementResult.class);

    assertEquals("Done", result.outcome());
    assertTrue(test.nodes.drainRequests().stream().noneMatch(DrainRequest::bypassPdb), "never past the PDB");
    assertTrue(test.nodes.drainRequests().stream().allMatch(r -> "default".equals(r.nodePool())));
    assertFalse(WorkflowStub.fromTyped(workflow).describe().getTypedSearchAttributes()
        .containsKey(FarrierSearchAttributes.BLOCKER), "no blocker once done");
  }

  @Test
  void aRefusedSurgeIsNamedAndTheDrainKeepsWaitingForThePdb() {
    String reason = "maxSurge 0 resolves to 0 for 1 replica(s): no new pod may start before the old one goes";
    AtomicBoolean relaxed = new AtomicBoolean();
    test.nodes.onDrainStep(r -> relaxed.get() ? FakeNodeActivities.drained(List.of(POD)) : refused(true));
    test.nodes.onSurge(r -> new SurgeOutcome(r.pod(), DEPLOYMENT, Result.REFUSED, reason));
    NodeReplacementWorkflow workflow = start();

    ReplacementProgress refused = Eventually.await("the refusal named", () -> running().progress(), p -> p.blocker() != null);
    Eventually.await("more refused passes", () -> test.nodes.surgeRequests().size(), n -> n >= 3);

    assertEquals("surge of deployment default/web refused: " + reason, refused.blockedBy());
    assertEquals(Blocker.Kind.SURGE, refused.blocker().kind());
    assertEquals(reason, test.nodes.surgeRequests().get(2).previous().reason(), "the refusal it last heard is passed on");
    assertTrue(test.nodes.events().stream().anyMatch(e -> e.reason().equals("DrainBlocked") && e.message().contains(reason)));
    assertEquals(List.of(), running().progress().evicted(), "nothing evicted while the PDB holds");

    relaxed.set(true);
    assertEquals("Done", WorkflowStub.fromTyped(workflow).getResult(ReplacementResult.class).outcome());
    assertTrue(test.nodes.drainRequests().stream().noneMatch(DrainRequest::bypassPdb));
  }

  @Test
  void aStalledSurgeIsNamedAndNeverStartedAgain() {
    test.nodes.onDrainStep(r -> r.bypassPdb() ? FakeNodeActivities.drained(List.of(POD)) : refused(true));
    test.nodes.onSurge(r -> {
      return r.previous() == null ? new SurgeOutcome(r.pod(), DEPLOYMENT, Result.STARTED, null)
          : new SurgeOutcome(r.pod(), DEPLOYMENT, Result.STALLED, "its new pod did not become Ready");
    });
    NodeReplacementWorkflow workflow = start();

    ReplacementProgress stalled = Eventually.await("the stall named", () -> running().progress(),
        p -> p.blocker() != null && p.blockedBy().contains("stalled"));

    assertEquals("surge of deployment default/web stalled: its new pod did not become Ready", stalled.blockedBy());
    long started = test.nodes.surgeRequests().stream().filter(r -> r.previous() == null).count();
    assertEquals(1, started, "one request without a previous answer: the activity is told the surge exists");
    running().forceDrain(OperatorRequest.of("the new pod cannot start"));
    assertEquals("Done", WorkflowStub.fromTyped(workflow).getResult(ReplacementResult.class).outcome());
  }

  @Test
  void aSurgeThatCannotBeAskedAboutKeepsItsLastAnswerAndAFirstOneThatCannotIsARefusal() {
    AtomicBoolean oldPodGone = new AtomicBoolean();
    test.nodes.onDrainStep(r -> oldPodGone.get() ? FakeNodeActivities.drained(List.of()) : refused(true));
    test.nodes.onSurge(r -> {
      if (r.previous() == null) {
        return new SurgeOutcome(r.pod(), DEPLOYMENT, Result.STARTED, null);
      }
      throw ApplicationFailure.newNonRetryableFailure("the API server did not answer", "Timeout");
    });
    NodeReplacementWorkflow workflow = start();

    Eventually.await("three passes asked", () -> test.nodes.surgeRequests().size(), n -> n >= 3);

    assertEquals("surging deployment default/web: waiting for its new pod to be Ready", running().progress().blockedBy(),
        "the surge it started stands while it cannot be asked about");
    assertTrue(test.nodes.surgeRequests().stream().skip(1).allMatch(r -> r.previous().result() == Result.STARTED),
        "never told the surge is unknown: never started again");
    oldPodGone.set(true);
    assertEquals("Done", WorkflowStub.fromTyped(workflow).getResult(ReplacementResult.class).outcome());
  }

  @Test
  void aFirstSurgeThatCannotBeAskedAboutLeavesThePodToItsPdb() {
    AtomicBoolean relaxed = new AtomicBoolean();
    test.nodes.onDrainStep(r -> relaxed.get() ? FakeNodeActivities.drained(List.of(POD)) : refused(true));
    test.nodes.onSurge(r -> {
      throw ApplicationFailure.newNonRetryableFailure("the API server did not answer", "Timeout");
    });
    NodeReplacementWorkflow workflow = start();

    ReplacementProgress refused = Eventually.await("the refusal named", () -> running().progress(), p -> p.blocker() != null);

    assertTrue(refused.blockedBy().startsWith("surge of pod " + POD + " refused: cannot read it: "), refused.blockedBy());
    relaxed.set(true);
    assertEquals("Done", WorkflowStub.fromTyped(workflow).getResult(ReplacementResult.class).outcome());
  }

  @Test
  void theSurgeAnswersCrossContinueAsNewSoASurgeIsNeverStartedTwice() {
    int blockedPasses = Drain.MAX_DRAIN_PASSES_PER_RUN + 10;
    AtomicInteger passes = new AtomicInteger();
    test.nodes.onDrainStep(r -> passes.incrementAndGet() <= blockedPasses ? refused(true) : FakeNodeActivities.drained(List.of()));
    test.nodes.onSurge(r -> new SurgeOutcome(r.pod(), DEPLOYMENT, r.previous() == null ? Result.STARTED : Result.SURGING, null));
    NodeReplacementWorkflow workflow = start();
    String firstRun = WorkflowStub.fromTyped(workflow).getExecution().getRunId();

    assertEquals("Done", test.client().newUntypedWorkflowStub(ID).getResult(ReplacementResult.class).outcome());

    assertTrue(test.nodes.surgeRequests().size() > Drain.MAX_DRAIN_PASSES_PER_RUN);
    assertEquals(io.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW,
        test.client().fetchHistory(ID, firstRun).getLastEvent().getEventType());
    assertEquals(1, test.nodes.surgeRequests().stream().filter(r -> r.previous() == null).count(),
        "the new run knows the surge the first one started");
  }

  @Test
  void aPassWithTwoSurgeablePodsAsksAboutBothInOneActivityCall() {
    String db = "default/db-5c8d-fghij";
    AtomicInteger passes = new AtomicInteger();
    test.nodes.onDrainStep(r -> passes.incrementAndGet() < 4
        ? DrainStatus.of(List.of(), List.of(POD, db), List.of(new HeldPod(POD, HeldPod.Cause.PDB, PDB),
            new HeldPod(db, HeldPod.Cause.PDB, "default/db-pdb")), null, List.of(), List.of(POD, db))
        : FakeNodeActivities.drained(List.of(POD, db)));
    test.nodes.onSurge(r -> r.pod().equals(POD) ? new SurgeOutcome(r.pod(), DEPLOYMENT, Result.REFUSED, "strategy Recreate")
        : new SurgeOutcome(r.pod(), "default/db", Result.REFUSED, "the Deployment has 2 replicas"));
    NodeReplacementWorkflow workflow = start();

    ReplacementProgress blocked = Eventually.await("both named", () -> running().progress(), p -> p.blocker() != null);

    assertEquals("surge of deployment default/web refused: strategy Recreate; surge of deployment default/db refused: "
        + "the Deployment has 2 replicas", blocked.blockedBy());
    assertEquals("Done", WorkflowStub.fromTyped(workflow).getResult(ReplacementResult.class).outcome());
    assertEquals(3, test.journal.countStartingWith("surge"), "one surge call a pass, not one a pod");
    assertEquals(6, test.nodes.surgeRequests().size());
  }

  @Test
  void aPdbBlockedPodThatDidNotOptInIsNeverSurged() {
    AtomicInteger passes = new AtomicInteger();
    test.nodes.onDrainStep(r -> passes.incrementAndGet() < 4 ? refused(false) : FakeNodeActivities.drained(List.of(POD)));
    NodeReplacementWorkflow workflow = start();

    ReplacementProgress blocked = Eventually.await("the PDB named", () -> running().progress(), p -> p.blocker() != null);

    assertEquals("PodDisruptionBudget " + PDB, blocked.blockedBy());
    assertEquals(Blocker.Kind.PDB, blocked.blocker().kind());
    assertEquals("Done", WorkflowStub.fromTyped(workflow).getResult(ReplacementResult.class).outcome());
    assertEquals(List.of(), test.nodes.surgeRequests());
    assertEquals(0, test.journal.countStartingWith("surge"));
  }
}
