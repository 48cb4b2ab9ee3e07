package dev.farrier.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.activities.HealthObservation;
import dev.farrier.model.RolloutBatch;
import dev.farrier.workflows.testing.Eventually;
import dev.farrier.workflows.testing.FakeRolloutActivities;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import dev.farrier.workflows.upgrade.NodePoolUpgradeWorkflow;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code farrier upgrade} as a CI job runs it, against the real rollout and replacement workflows on Temporal's test
 * server with the workflows module's activity fakes: exit codes, the JSON result, progress on stderr, attaching on a
 * re-run, and the approve / abort / status subcommands.
 */
class UpgradeCommandTest {
  private static final String ID = "upgrade/default/al2023@v20251103";
  private static final String[] START = {"upgrade", "--cluster", Fixtures.CLUSTER, "--nodepool", "default", "--ami",
      "al2023@v20251103", "--canary", "1", "--batch-size", "2", "--soak", "0s"};

  private final FarrierTestEnvironment test = new FarrierTestEnvironment();
  private final List<String> drifted = new ArrayList<>();

  @BeforeEach
  void fleetOfThree() {
    drifted.addAll(List.of("default-1", "default-2", "default-3"));
    test.planning.onPlanRollout(request -> {
      synchronized (drifted) {
        if (!request.rollout().onlyClaims().isEmpty()) {
          return new RolloutBatch(List.of(), 0, List.of());
        }
        int remaining = drifted.size();
        List<String> take = new ArrayList<>(drifted.subList(0, Math.min(request.rollout().max(), drifted.size())));
        drifted.removeAll(take);
        return new RolloutBatch(take.stream().map(c -> Fixtures.command(c, "replace", null)).toList(), remaining, List.of());
      }
    });
  }

  @AfterEach
  void stop() {
    test.close();
  }

  private FarrierCliTest.Run run(String... args) {
    return run(test, args);
  }

  /** {@code farrier args} on {@code test}'s Temporal, {@code upgrade --wait} polling every 50 ms. */
  static FarrierCliTest.Run run(FarrierTestEnvironment test, String... args) {
    var cli = new FarrierCli();
    cli.clientFactory = ignored -> test.client();
    var commandLine = FarrierCli.commandLine(cli);
    ((UpgradeCommand) commandLine.getSubcommands().get("upgrade").getCommand()).pollInterval = Duration.ofMillis(50);
    return FarrierCliTest.execute(cli, commandLine, args);
  }

  static String[] with(String[] base, String... more) {
    String[] all = new String[base.length + more.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }

  private static JsonNode json(String text) throws Exception {
    return Json.MAPPER.readTree(text);
  }

  @Test
  void waitFollowsAGoodRolloutToItsEndAndPrintsTheResultAsJson() throws Exception {
    test.start();
    var run = run(with(START, "--wait", "-o", "json"));

    assertEquals(0, run.exitCode(), run::toString);
    JsonNode result = json(run.out());
    assertEquals(ID, result.get("workflowId").asText());
    assertEquals("Succeeded", result.get("outcome").asText());
    assertEquals(3, result.get("replaced").asInt());
    assertEquals(2, result.get("batches").asInt());
    assertTrue(run.err().startsWith("started rollout " + ID), run.err());
  }

  @Test
  void rollingIsPassedToTheRolloutAndRollsTheFleet() throws Exception {
    test.start();
    var run = run(with(START, "--rolling", "--wait", "-o", "json"));

    assertEquals(0, run.exitCode(), run::toString);
    assertEquals(3, json(run.out()).get("replaced").asInt());
    var started = test.client().fetchHistory(ID).getHistory().getEvents(0).getWorkflowExecutionStartedEventAttributes();
    JsonNode input = json(started.getInput().getPayloads(0).getData().toStringUtf8());
    assertTrue(input.get("rolling").asBoolean(), input.toString());
  }

  @Test
  void withoutWaitItPrintsTheIdAndReturns() {
    test.start();
    var run = run(START);
    assertEquals(0, run.exitCode(), run::toString);
    assertEquals(ID, run.out().strip());
  }

  @Test
  void aFailedGateExitsFiveWithTheCause() throws Exception {
    test.rollout.onObserveHealth(r -> new HealthObservation(
        r.nodes().stream().map(n -> new HealthObservation.NodeHealth(n, true, true)).toList(),
        r.workloads().stream().map(w -> FakeRolloutActivities.pod("default/web-1", w, false, 3, "CrashLoopBackOff")).toList()));
    test.start();
    var run = run(with(START, "--wait", "-o", "json"));

    assertEquals(ExitCodes.FAILED, run.exitCode(), run::toString);
    JsonNode result = json(run.out());
    assertEquals("Failed", result.get("outcome").asText());
    assertTrue(result.get("cause").asText().contains("CrashLoopBackOff"), run.out());
    assertEquals(1, result.get("batches").asInt());
  }

  @Test
  void aNodePoolOwnedByAnotherRolloutIsRefusedWithExitThree() {
    test.rollout.onClaim(r -> {
      throw ApplicationFailure.newNonRetryableFailure("NodePool default is being upgraded by upgrade/default/al2023@v20251020",
          FailureTypes.ROLLOUT_CONFLICT);
    });
    test.start();
    var run = run(with(START, "--wait"));
    assertEquals(ExitCodes.REFUSED, run.exitCode(), run::toString);
    assertTrue(run.err().contains("being upgraded by upgrade/default/al2023@v20251020"), run.err());
  }

  @Test
  void badInputExitsTwoSayingWhatIsWrongAndStartsNothing() {
    test.start();
    assertUsage(run("upgrade", "--nodepool", "default"), "--ami (the AMI to roll to) or --kubernetes-version is required");
    assertUsage(run("upgrade", "--nodepool", "default", "--ami", "windows"), "is not a target");
    assertUsage(run("upgrade", "--nodepool", "default", "--nodeclass", "default", "--ami", "al2023@latest"), "not both");
    assertUsage(run("upgrade", "--ami", "al2023@latest"), "not neither");
    assertUsage(run("upgrade", "--nodepool", "default", "--ami", "al2023@latest", "--soak", "five"), "--soak 'five'");
    assertUsage(run("upgrade", "--nodepool", "default", "--ami", "al2023@latest", "--batch-size", "150%"), "percentage");
    assertEquals(0, test.journal.all().size(), test.journal.all().toString());
  }

  private static void assertUsage(FarrierCliTest.Run run, String says) {
    assertEquals(ExitCodes.USAGE, run.exitCode(), run::toString);
    assertTrue(run.err().contains(says), run.err());
  }

  @Test
  void theSameJobRunAgainAttachesToTheRunningRolloutAndApproveLetsItFinish() throws Exception {
    test.start();
    var first = run(with(START, "--approve"));
    assertEquals(0, first.exitCode(), first::toString);
    var rollout = test.existing(NodePoolUpgradeWorkflow.class, ID);
    Eventually.await("waiting for approval", rollout::progress, p -> p.phase().equals("AwaitingApproval"));

    var timedOut = run(with(START, "--approve", "--wait", "--timeout", "1s"));
    assertEquals(ExitCodes.TIMED_OUT, timedOut.exitCode(), timedOut::toString);
    assertTrue(timedOut.err().startsWith("attached to running rollout " + ID), timedOut.err());
    assertTrue(timedOut.err().contains("AwaitingApproval"), timedOut.err());
    assertEquals(1, test.journal.countStartingWith("claim"), "one rollout, not two");

    var status = run("upgrade", "status", ID, "-o", "json");
    assertEquals(0, status.exitCode(), status::toString);
    assertEquals("AwaitingApproval", json(status.out()).get("phase").asText());

    var approved = run("upgrade", "approve", ID, "--reason", "canary fine");
    assertEquals(0, approved.exitCode(), approved::toString);
    var done = run(with(START, "--approve", "--wait"));
    assertEquals(0, done.exitCode(), done::toString);
    assertTrue(done.out().contains("Succeeded: 3 node(s) replaced in 2 batch(es)"), done.out());
  }

  @Test
  void abortNeedsAReasonAndStopsTheRollout() {
    test.start();
    run(with(START, "--approve"));
    var rollout = test.existing(NodePoolUpgradeWorkflow.class, ID);
    Eventually.await("waiting for approval", rollout::progress, p -> p.phase().equals("AwaitingApproval"));

    assertEquals(ExitCodes.USAGE, run("upgrade", "abort", ID).exitCode());
    var refusedApprove = run("upgrade", "approve", "upgrade/other/al2023@latest");
    assertEquals(ExitCodes.NOT_FOUND, refusedApprove.exitCode(), refusedApprove::toString);

    var aborted = run("upgrade", "abort", ID, "--reason", "latency doubled", "--by", "bob");
    assertEquals(0, aborted.exitCode(), aborted::toString);
    assertTrue(aborted.out().contains("abort accepted"), aborted.out());
    var result = test.client().newUntypedWorkflowStub(ID).getResult(dev.farrier.workflows.upgrade.UpgradeResult.class);
    assertEquals("Aborted", result.outcome());
    assertEquals("aborted: latency doubled (by bob)", result.cause());
  }

  @Test
  void freezeAndUnfreezeGoThroughTheReconcilersValidatedUpdates() {
    test.start();
    var reconciler = test.newWorkflow(dev.farrier.workflows.reconciler.ClusterReconcilerWorkflow.class,
        dev.farrier.workflows.WorkflowIds.reconciler(Fixtures.CLUSTER));
    io.temporal.client.WorkflowClient.start(reconciler::run, new dev.farrier.workflows.reconciler.ReconcilerInput(Fixtures.CLUSTER,
        dev.farrier.model.ReconcilerSettings.DEFAULTS, 0, List.of()));
    String[] cluster = {"--cluster", Fixtures.CLUSTER};

    assertEquals(ExitCodes.USAGE, run(with(cluster, "freeze")).exitCode(), "a freeze needs --reason");
    var frozen = run(with(cluster, "freeze", "--reason", "incident 4711", "--by", "alice"));
    assertEquals(0, frozen.exitCode(), frozen::toString);
    assertTrue(frozen.out().startsWith("frozen cluster-wide since "), frozen.out());
    var again = run(with(cluster, "freeze", "--reason", "again"));
    assertEquals(ExitCodes.REFUSED, again.exitCode(), again::toString);
    assertTrue(again.err().contains("already frozen cluster-wide"), again.err());
    var wrongScope = run(with(cluster, "unfreeze", "--nodepool", "web"));
    assertEquals(ExitCodes.REFUSED, wrongScope.exitCode(), wrongScope::toString);
    assertEquals(1, FreezeCommands.inForce(test.client(), Fixtures.CLUSTER).size());
    assertEquals(0, run(with(cluster, "unfreeze")).exitCode());
    assertEquals(List.of(), FreezeCommands.inForce(test.client(), Fixtures.CLUSTER));
    assertEquals(List.of(), FreezeCommands.inForce(test.client(), "no-such-cluster"), "no reconciler: no freeze");
  }

  @Test
  void waitShowsWhatHoldsTheBatchsReplacementsSuchAsAPdb() {
    test.nodes.onDrainStep(r -> dev.farrier.workflows.testing.FakeNodeActivities.blockedByPdb(List.of("default/web-1"), "default/web-pdb"));
    test.start();
    // The drain never ends, so the wait always runs to its bound: long enough for the canary's replacement to reach
    // its drain on a loaded machine (3 s was not, in a .ci/run), short enough for a unit test.
    var run = run(with(START, "--wait", "--timeout", "12s"));
    assertEquals(ExitCodes.TIMED_OUT, run.exitCode(), run::toString);
    assertTrue(run.err().contains("Canary, batch 1, 0/3 replaced; disrupt/default-1 Draining, blocked by PodDisruptionBudget default/web-pdb"),
        run.err());
  }

  @Test
  void aKubernetesVersionIsATargetOfItsOwn() throws Exception {
    test.start();
    var run = run("upgrade", "--cluster", Fixtures.CLUSTER, "--nodepool", "default", "--kubernetes-version", "1.35",
        "--soak", "0s", "--batch-size", "2", "--wait", "-o", "json");
    assertEquals(0, run.exitCode(), run::toString);
    assertEquals("upgrade/default/k8s-1.35", json(run.out()).get("workflowId").asText());
    assertEquals("k8s-1.35", json(run.out()).get("target").asText());
    assertUsage(run("upgrade", "--nodepool", "default", "--kubernetes-version", "v1.35"), "not major.minor");
    assertUsage(run("upgrade", "--nodepool", "default", "--kubernetes-version", "1.35", "--ami", "al2023@latest"), "not both");
  }
}
