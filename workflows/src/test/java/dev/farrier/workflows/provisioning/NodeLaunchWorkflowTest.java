package dev.farrier.workflows.provisioning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.workflows.testing.FakeNodeClaimActivities;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.client.WorkflowFailedException;
import io.temporal.failure.ApplicationFailure;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NodeLaunchWorkflowTest {
  private final FarrierTestEnvironment test = new FarrierTestEnvironment();

  @AfterEach
  void close() {
    test.close();
  }

  private NodeLaunchWorkflow launch(String claim) {
    return test.newWorkflow(NodeLaunchWorkflow.class, WorkflowIds.launch(claim));
  }

  private static NodeLaunchInput input(String claim) {
    return new NodeLaunchInput(Fixtures.CLUSTER, Fixtures.claim(claim, "default"), Fixtures.LAUNCH);
  }

  @Test
  void launchesRegistersAndInitializesInOrder() {
    test.start();
    NodeLaunchWorkflow workflow = launch("default-a");

    LaunchedNode node = workflow.launch(input("default-a"));

    assertEquals("node-default-a", node.nodeName());
    assertEquals("i-default-a", node.instance().instanceId());
    assertEquals(List.of(
        "createNodeClaim default-a",
        "launchInstance default-a",
        "awaitRegistered default-a",
        "registerNode default-a node-default-a",
        "awaitInitialized default-a"), test.journal.steps());
    assertEquals(List.of("Launched", "Registered", "Initialized"),
        test.nodes.events().stream().map(EventRequest::reason).toList());
    assertEquals("Initialized", test.existing(NodeLaunchWorkflow.class, WorkflowIds.launch("default-a")).phase());
  }

  @Test
  void insufficientCapacityDeletesTheClaimAndTerminatesOnlyWhatIsTaggedForIt() {
    test.nodeClaims.onLaunchInstance(ref -> {
      throw ApplicationFailure.newNonRetryableFailure("no capacity for m5.large in us-west-2a",
          FailureTypes.INSUFFICIENT_CAPACITY);
    });
    test.start();

    var failure = assertThrows(WorkflowFailedException.class, () -> launch("default-b").launch(input("default-b")));

    ApplicationFailure cause = assertInstanceOf(ApplicationFailure.class, failure.getCause());
    assertEquals(FailureTypes.INSUFFICIENT_CAPACITY, cause.getType());
    assertTrue(cause.getOriginalMessage().contains("nodeclaim default-b failed while Launching"), cause.getOriginalMessage());
    assertTrue(cause.getOriginalMessage().contains("any instance tagged for the claim terminated"), cause.getOriginalMessage());
    assertEquals(1, test.journal.count("launchInstance default-b"), "a non-retryable failure is not retried");
    assertEquals(1, test.journal.count("terminateInstance default-b null"),
        "no id is known, so the activity terminates only an instance tagged for this claim (an earlier attempt's)");
    assertEquals(1, test.journal.count("deleteNodeClaim default-b"));
    assertEquals(0, test.journal.count("recordRegistrationFailure default-b InsufficientCapacity"),
        "a capacity error is not the pool's registration failing (another offering is tried)");
    assertTrue(test.nodes.events().stream().anyMatch(e -> e.reason().equals("LaunchFailed") && e.type().equals("Warning")));
  }

  @Test
  void launchWithUnknownOutcomeTerminatesWhateverIsTaggedForTheClaim() {
    test.nodeClaims.onLaunchInstance(ref -> {
      throw new IllegalStateException("connection reset after the request was sent");
    });
    test.start();

    var failure = assertThrows(WorkflowFailedException.class, () -> launch("default-e").launch(input("default-e")));

    ApplicationFailure cause = assertInstanceOf(ApplicationFailure.class, failure.getCause());
    assertTrue(cause.getOriginalMessage().contains("any instance tagged for the claim terminated"), cause.getOriginalMessage());
    assertTrue(test.journal.count("launchInstance default-e") > 1, "a retryable failure is retried until the schedule-to-close");
    assertEquals(1, test.journal.count("terminateInstance default-e null"), "no id known: the activity looks the claim's tag up");
    assertEquals(1, test.journal.count("deleteNodeClaim default-e"));
    assertEquals(1, test.journal.count("recordRegistrationFailure default-e LaunchFailed"), "a launch that never happened counts");
  }

  @Test
  void registrationTimeoutTerminatesTheInstanceAndDeletesTheClaim() {
    test.nodeClaims.onAwaitRegistered(request -> {
      throw FakeNodeClaimActivities.notYet("registration");
    });
    test.start();

    var failure = assertThrows(WorkflowFailedException.class, () -> launch("default-c").launch(input("default-c")));

    ApplicationFailure cause = assertInstanceOf(ApplicationFailure.class, failure.getCause());
    assertEquals(FailureTypes.REGISTRATION_TIMEOUT, cause.getType());
    assertTrue(cause.getOriginalMessage().contains("did not register within 120s"), cause.getOriginalMessage());
    List<String> steps = test.journal.steps();
    List<String> cleanup = steps.subList(steps.lastIndexOf("awaitRegistered default-c") + 1, steps.size());
    assertEquals(List.of(
        "recordRegistrationFailure default-c RegistrationTimeout",
        "terminateInstance default-c i-default-c",
        "awaitInstanceTerminated default-c i-default-c",
        "deleteNodeClaim default-c"), cleanup);
    assertFalse(steps.contains("registerNode default-c node-default-c"));
  }
}
