package dev.farrier.workflows.replacement;

import dev.farrier.model.ReplacementResult;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.workflows.activities.DrainRequest;
import dev.farrier.model.ReplacementPlan;
import dev.farrier.workflows.testing.Eventually;
import dev.farrier.workflows.testing.FakeNodeActivities;
import dev.farrier.workflows.testing.FakeNodeClaimActivities;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Expiry as Karpenter v1 does it (forceful, the default): drained at once with PDBs respected until the
 * terminationGracePeriod, the replacement launched in parallel only when pods need one, and nothing about the
 * replacement stops the drain; and the replace-first expiry a NodePool can ask for ({@code farrier.dev/expiry}).
 */
class ExpiryWorkflowTest {
  private static final String OLD = "default-old";
  private static final String OLD_NODE = "node-default-old";
  private static final String ID = WorkflowIds.disruption(OLD);
  private static final List<String> PODS = List.of("default/web-1", "default/web-2");

  private final FarrierTestEnvironment test = new FarrierTestEnvironment();

  @AfterEach
  void close() {
    test.close();
  }

  private ReplacementResult replace(DisruptionCommand command) {
    return test.newWorkflow(NodeReplacementWorkflow.class, ID).replace(Fixtures.replacement(command));
  }

  private NodeReplacementWorkflow running() {
    return test.existing(NodeReplacementWorkflow.class, ID);
  }

  @Test
  @Timeout(60)
  void anExpiredNodeDrainsAtOnceWhileItsReplacementLaunches() {
    AtomicInteger initializedChecks = new AtomicInteger();
    AtomicReference<Boolean> drainedBeforeInitialized = new AtomicReference<>();
    test.nodes.onDrainStep(request -> {
      drainedBeforeInitialized.compareAndSet(null, initializedChecks.get() < 100);
      return FakeNodeActivities.drained(PODS);
    });
    test.nodeClaims.onAwaitInitialized(request -> {
      initializedChecks.incrementAndGet();
      if (drainedBeforeInitialized.get() == null) {
        throw FakeNodeClaimActivities.notYet("initialization");
      }
      initializedChecks.set(100);
    });
    test.start();

    ReplacementResult result = test.newWorkflow(NodeReplacementWorkflow.class, ID)
        .replace(Fixtures.replacement(Fixtures.expired(OLD, "replace", null, true)).withApprovalRequired(true));

    assertEquals("Done", result.outcome(), "a forceful expiry waits for no approval either");
    assertTrue(drainedBeforeInitialized.get(), "cordoned and drained while the replacement was still launching");
    assertNotNull(result.replacementNode(), "the replacement launched in parallel is collected");
    assertEquals(1, test.journal.countStartingWith("createNodeClaim"));
    assertTrue(test.journal.indexOf("cordon " + OLD_NODE) < test.journal.indexOf("drainStep " + OLD_NODE + " evict"));
    assertFalse(test.nodes.events().stream().anyMatch(e -> e.reason().equals("Interrupted")), "an expiry is no interruption");
  }

  @Test
  void anExpiredNodeWithoutReschedulablePodsLaunchesNothing() {
    test.start();

    ReplacementResult result = replace(Fixtures.expired(OLD, "delete", null, true));

    assertEquals("Done", result.outcome());
    assertNull(result.replacementNodeClaim());
    assertEquals(0, test.journal.countStartingWith("planReplacement"));
    assertEquals(0, test.journal.countStartingWith("createNodeClaim"));
    assertEquals(1, test.journal.count("terminateInstance " + OLD + " i-" + OLD));
  }

  @Test
  void aReplacementThatCannotBePlannedDoesNotStopTheExpiryDrain() {
    test.planning.onPlanReplacement(request -> new ReplacementPlan(null, 3, "nodepool default: cpu limit 4 reached"));
    test.start();

    ReplacementResult result = replace(Fixtures.expired(OLD, "replace", null, true));

    assertEquals("Done", result.outcome(), "the expired node goes; its pods wait for provisioning like Karpenter's");
    assertNull(result.replacementNodeClaim());
    assertEquals(0, test.journal.countStartingWith("untaintDisrupted"), "not given back");
    assertEquals(1, test.journal.countStartingWith("drainStep"));
    assertEquals(1, test.journal.count("terminateInstance " + OLD + " i-" + OLD));
  }

  @Test
  void aReplacementThatFailsToLaunchDoesNotStopTheExpiryDrain() {
    test.nodeClaims.onLaunchInstance(ref -> {
      throw ApplicationFailure.newNonRetryableFailure("no capacity", FailureTypes.INSUFFICIENT_CAPACITY);
    });
    test.start();

    ReplacementResult result = replace(Fixtures.expired(OLD, "replace", null, true));

    assertEquals("Done", result.outcome());
    assertNull(result.replacementNode());
    assertEquals(1, test.journal.count("terminateInstance " + OLD + " i-" + OLD));
    assertTrue(test.nodes.events().stream().anyMatch(e -> e.reason().equals("LaunchFailed")
        && e.message().endsWith("the expired node is drained anyway")), "" + test.nodes.events());
  }

  @Test
  void afterTheTerminationGracePeriodTheRemainingPodsAreDeleted() {
    test.nodes.onDrainStep(request -> request.bypassPdb() ? FakeNodeActivities.drained(PODS)
        : FakeNodeActivities.blockedByPdb(PODS, "default/web-pdb"));
    test.start();

    ReplacementResult result = replace(Fixtures.expired(OLD, "replace", 60L, true));

    assertEquals("Done", result.outcome());
    List<Boolean> bypass = test.nodes.drainRequests().stream().map(DrainRequest::bypassPdb).toList();
    assertTrue(bypass.size() > 2, "PDBs hold the evictions until the grace period ends: " + bypass);
    assertTrue(bypass.getLast(), "the pass after it deletes the pods left, past their PDBs");
    assertFalse(bypass.subList(0, bypass.size() - 1).contains(true), "never before: " + bypass);
  }

  /** As Karpenter counts it from the NodeClaim's deletion: a failed step and its Retry do not start it again. */
  @Test
  @Timeout(60)
  void theGracePeriodCountsFromTheStartOfTheExpiryNotFromARetriedDrain() {
    AtomicInteger passes = new AtomicInteger();
    test.nodes.onDrainStep(request -> {
      if (passes.incrementAndGet() == 1) {
        throw ApplicationFailure.newNonRetryableFailure("the API server refused", "Unavailable");
      }
      return request.bypassPdb() ? FakeNodeActivities.drained(PODS) : FakeNodeActivities.blockedByPdb(PODS, "default/web-pdb");
    });
    test.start();
    NodeReplacementWorkflow workflow = test.newWorkflow(NodeReplacementWorkflow.class, ID);
    WorkflowClient.start(workflow::replace, Fixtures.replacement(Fixtures.expired(OLD, "replace", 60L, true)));
    Eventually.await("waiting for a retry", running()::progress, p -> p.phase().equals("AwaitingRetry"));
    test.sleep(Duration.ofMinutes(2));
    running().retryReplacement(OperatorRequest.of("API server is back"));

    ReplacementResult result = WorkflowStub.fromTyped(workflow).getResult(ReplacementResult.class);

    assertEquals("Done", result.outcome());
    List<DrainRequest> drains = test.nodes.drainRequests();
    assertEquals(2, drains.size(), "the retried drain's first pass already deletes: " + drains);
    assertTrue(drains.getLast().bypassPdb());
    assertEquals(1, test.journal.countStartingWith("createNodeClaim"), "the retry launches no second replacement");
    assertNotNull(result.replacementNode());
  }

  @Test
  void aReplaceFirstExpiryCordonsOnlyOnceItsReplacementIsInitialized() {
    test.start();

    ReplacementResult result = replace(Fixtures.expired(OLD, "replace", null, false));

    assertEquals("Done", result.outcome());
    String r = result.replacementNodeClaim();
    assertTrue(test.journal.indexOf("awaitInitialized " + r) < test.journal.indexOf("cordon " + OLD_NODE),
        test.journal.steps().toString());
  }

  @Test
  void aReplaceFirstExpiryGivesTheNodeBackWhenNoReplacementIsPossible() {
    test.planning.onPlanReplacement(request -> new ReplacementPlan(null, 3, "nodepool default: cpu limit 4 reached"));
    test.start();

    var failure = assertThrows(WorkflowFailedException.class, () -> replace(Fixtures.expired(OLD, "replace", null, false)));

    ApplicationFailure cause = assertInstanceOf(ApplicationFailure.class, failure.getCause());
    assertEquals(FailureTypes.NO_REPLACEMENT_POSSIBLE, cause.getType());
    assertEquals(1, test.journal.count("untaintDisrupted " + OLD_NODE));
    assertEquals(0, test.journal.countStartingWith("cordon"), "never cordoned");
    assertEquals(0, test.journal.countStartingWith("drainStep"), "never drained");
  }
}
