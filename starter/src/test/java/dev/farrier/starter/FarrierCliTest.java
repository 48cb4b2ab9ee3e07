package dev.farrier.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.ReplacementInput;
import dev.farrier.workflows.replacement.ReplacementProgress;
import dev.farrier.model.ReplacementResult;
import dev.farrier.workflows.testing.Eventually;
import dev.farrier.workflows.testing.FakeNodeActivities;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.client.WorkflowClient;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The CLI against the real replacement workflow (its validators, its progress query) on Temporal's time-skipping test
 * server, with the workflows module's activity fakes. {@code list} is not here: that server has no visibility queries
 * (see FarrierCliListTest and FarrierCliDevServerTest).
 */
class FarrierCliTest {
  private static final String OLD = "default-old";
  private static final String ID = WorkflowIds.disruption(OLD);
  private static final List<String> PODS = List.of("default/web-1", "default/web-2");

  private final FarrierTestEnvironment test = new FarrierTestEnvironment();
  private Clock clock = Clock.systemUTC();

  record Run(int exitCode, String out, String err) {}

  @AfterEach
  void stop() {
    test.close();
  }

  private Run run(String... args) {
    var cli = new FarrierCli();
    cli.clientFactory = ignored -> test.client();
    cli.clock = clock;
    return execute(cli, args);
  }

  static Run execute(FarrierCli cli, String... args) {
    return execute(cli, FarrierCli.commandLine(cli), args);
  }

  static Run execute(FarrierCli cli, picocli.CommandLine cl, String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int exitCode = cl.execute(args);
    return new Run(exitCode, out.toString(), err.toString());
  }

  private String ok(String... args) {
    Run run = run(args);
    assertEquals(0, run.exitCode(), run::toString);
    return run.out();
  }

  private void startReplacement(ReplacementInput input) {
    test.start();
    var replacement = test.newWorkflow(NodeReplacementWorkflow.class, ID);
    WorkflowClient.start(replacement::replace, input);
  }

  /** A replacement whose drain a PDB holds until the drain is forced. */
  private void startBlockedByPdb() {
    test.nodes.onDrainStep(request -> request.bypassPdb() ? FakeNodeActivities.drained(PODS)
        : FakeNodeActivities.blockedByPdb(PODS, "default/web-pdb"));
    startReplacement(Fixtures.replacement(Fixtures.command(OLD, "replace", null)));
    awaitProgress("blocked by the PDB", p -> p.blocker() != null);
  }

  private ReplacementProgress awaitProgress(String what, Predicate<ReplacementProgress> done) {
    return Eventually.await(what, () -> test.existing(NodeReplacementWorkflow.class, ID).progress(), done);
  }

  private ReplacementResult result() {
    return test.client().newUntypedWorkflowStub(ID).getResult(ReplacementResult.class);
  }

  /** "Now" is 2m13s after the blocker was first seen. */
  private long blockedFor2m13s() {
    long since = test.existing(NodeReplacementWorkflow.class, ID).progress().blocker().sinceMillis();
    clock = Clock.fixed(Instant.ofEpochMilli(since + 133_000), ZoneOffset.UTC);
    return since;
  }

  @Test
  void statusSaysWhatBlocksAndForHowLong() {
    startBlockedByPdb();
    blockedFor2m13s();
    String replacement = test.existing(NodeReplacementWorkflow.class, ID).progress().replacement();

    String out = ok("status", OLD);

    assertTrue(out.contains("replacement of: disrupt/default-old (node node-default-old, nodepool default)"), out);
    assertTrue(out.contains("phase:          Draining\n"), out);
    assertTrue(out.contains("paused:         no\n"), out);
    assertTrue(out.contains("reason:         drifted\n"), out);
    assertTrue(out.contains("replacement:    " + replacement + "\n"), out);
    assertTrue(out.contains("pods left:      2 (default/web-1, default/web-2)\n"), out);
    assertTrue(out.contains("evicted:        0\n"), out);
    assertTrue(out.contains("blocked for 2m13s by PodDisruptionBudget default/web-pdb (pods: default/web-1, default/web-2)\n"), out);
    assertTrue(out.contains("forced drain:   no\n"), out);
  }

  @Test
  void statusJsonIsTheProgressQueryPlusBlockedForSeconds() throws IOException {
    startBlockedByPdb();
    blockedFor2m13s();
    ReplacementProgress progress = test.existing(NodeReplacementWorkflow.class, ID).progress();

    JsonNode json = Json.MAPPER.readTree(ok("status", OLD, "-o", "json"));

    assertEquals(133, json.get("blockedForSeconds").asLong());
    assertEquals("Draining", json.get("phase").asText());
    assertEquals("PDB", json.get("blocker").get("kind").asText());
    assertEquals("default/web-pdb", json.get("blocker").get("budgets").get(0).asText());
    ((ObjectNode) json).remove("blockedForSeconds");
    assertEquals(progress, Json.MAPPER.treeToValue(json, ReplacementProgress.class), "the rest is the query's answer, whole");
  }

  @Test
  void pauseAndResumeGoThroughTheValidatedUpdates() {
    startBlockedByPdb();

    assertEquals("disrupt/default-old: paused before its next step (change freeze (by alice))\n",
        ok("pause", OLD, "--reason", "change freeze", "--by", "alice"));
    assertTrue(ok("status", OLD).contains("paused:         yes\n"));
    assertEquals(new Run(3, "", "farrier: refused: already paused; resume it with Resume\n"), run("pause", OLD));

    assertEquals("disrupt/default-old: resumed\n", ok("resume", OLD));
    assertTrue(ok("status", OLD).contains("paused:         no\n"));
    assertEquals(new Run(3, "", "farrier: refused: it is not paused (phase Draining)\n"), run("resume", OLD));
  }

  @Test
  void abortNeedsAReasonThenRollsBack() {
    startBlockedByPdb();

    Run withoutReason = run("abort", OLD);
    assertEquals(2, withoutReason.exitCode());
    assertTrue(withoutReason.err().startsWith("Missing required option: '--reason=<reason>'"), withoutReason.err());

    assertEquals("disrupt/default-old: abort accepted in phase Draining: rolling back (bad AMI (by alice))\n",
        ok("abort", OLD, "--reason", "bad AMI", "--by", "alice"));
    assertEquals("Aborted", result().outcome());
    assertEquals(1, test.journal.count("untaintDisrupted node-default-old"));
  }

  @Test
  void forceDrainNeedsAReasonThenDeletesPastThePdb() {
    startBlockedByPdb();

    assertEquals(2, run("force-drain", OLD).exitCode());
    // The workflow counts the pods after recording its Event, when the forced pass may already have deleted them.
    String forced = ok("force-drain", OLD, "--reason", "node retired", "--by", "ci");
    assertTrue(forced.matches("disrupt/default-old: forcing the drain: the [02] pod\\(s\\) left are deleted past their "
        + "PDBs \\(node retired \\(by ci\\)\\)\n"), forced);
    assertEquals("Done", result().outcome());
    assertTrue(test.nodes.drainRequests().getLast().bypassPdb());
    assertTrue(ok("status", OLD).contains("forced drain:   node retired (by ci)\n"));
  }

  @Test
  void retryIsRefusedUntilAStepFailedThenRunsItAgain() {
    AtomicBoolean failDrain = new AtomicBoolean();
    AtomicBoolean failed = new AtomicBoolean();
    test.nodes.onDrainStep(request -> {
      if (failDrain.get() && !failed.getAndSet(true)) {
        throw ApplicationFailure.newNonRetryableFailure("apiserver said no", "DrainFailed");
      }
      return failed.get() ? FakeNodeActivities.drained(PODS) : new DrainStatus(List.of(), PODS, List.of(), List.of());
    });
    startReplacement(Fixtures.replacement(Fixtures.command(OLD, "replace", null)));
    awaitProgress("draining", p -> p.phase().equals("Draining"));

    assertEquals(new Run(3, "", "farrier: refused: nothing to retry: no step has failed (phase Draining)\n"), run("retry", OLD));

    failDrain.set(true);
    awaitProgress("waiting for a retry", p -> p.phase().equals("AwaitingRetry"));
    assertEquals("disrupt/default-old: retrying the replacement from the start\n", ok("retry", OLD));
    assertEquals("Done", result().outcome());
  }

  @Test
  void approveLetsAWaitingReplacementDrain() {
    startReplacement(Fixtures.replacement(Fixtures.command(OLD, "replace", null)).withApprovalRequired(true));
    awaitProgress("awaiting approval", p -> p.phase().equals("AwaitingApproval"));
    blockedFor2m13s();
    assertTrue(ok("status", OLD).contains("blocked for 2m13s by awaiting approval: replacement "));

    assertEquals("disrupt/default-old: approved: cordoning and draining node-default-old\n", ok("approve", OLD));
    assertEquals("Done", result().outcome());
  }

  @Test
  void anEndedReplacementShowsItsStatusButTakesNoAction() {
    startReplacement(Fixtures.replacement(Fixtures.command(OLD, "delete", null)));
    assertEquals("Done", result().outcome());

    assertTrue(ok("status", OLD).contains("phase:          Done (past the point of no return"));
    Run pause = run("pause", OLD);
    assertEquals(4, pause.exitCode(), pause::toString);
    assertEquals("farrier: no running replacement disrupt/default-old (it has ended: Completed)\n", pause.err());
  }

  @Test
  void anUnknownReplacementIsNotFound() {
    test.start();

    Run status = run("status", "no-such-claim");
    assertEquals(4, status.exitCode(), status::toString);
    assertTrue(status.err().startsWith("farrier: no replacement disrupt/no-such-claim ("), status.err());

    Run abort = run("abort", "no-such-claim", "--reason", "typo");
    assertEquals(4, abort.exitCode(), abort::toString);
    assertTrue(abort.err().startsWith("farrier: no replacement disrupt/no-such-claim ("), abort.err());
  }

  @Test
  void planWithoutAReconcilerIsNotFound() {
    test.start();

    Run plan = run("plan", "--cluster", "nowhere");
    assertEquals(4, plan.exitCode(), plan::toString);
    assertTrue(plan.err().startsWith("farrier: no reconciler reconciler/nowhere ("), plan.err());
  }

  @Test
  void unreachableTemporalIsAnError() throws IOException {
    int port;
    try (var socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    var cli = new FarrierCli();
    cli.connectTimeout = Duration.ofSeconds(1);

    Run status = execute(cli, "status", OLD, "--address", "127.0.0.1:" + port);

    assertEquals(1, status.exitCode(), status::toString);
    assertTrue(status.err().startsWith("farrier: cannot reach Temporal at 127.0.0.1:" + port
        + " (namespace default, plain text): UNAVAILABLE"), status.err());
  }

  @Test
  void helpListsTheExitCodes() {
    String help = ok("abort", "--help");
    assertTrue(help.contains("Exit codes:"), help);
    assertTrue(help.contains("3   refused: the workflow refused the action"), help);
    assertTrue(help.contains("4   not found"), help);
    String upgrade = ok("upgrade", "--help");
    assertTrue(upgrade.contains("5   upgrade --wait: the rollout failed or was aborted, and was rolled back"), upgrade);
    assertTrue(upgrade.contains("6   upgrade --wait: timed out waiting; the rollout still runs"), upgrade);
  }

  @Test
  void globalOptionsMayFollowTheSubcommandAndByDefaultsToTheUser() {
    var cli = new FarrierCli();
    var parsed = FarrierCli.commandLine(cli).parseArgs("pause", OLD, "--cluster", "prod", "--address", "temporal:7233");
    assertEquals("prod", cli.cluster);
    assertEquals("temporal:7233", cli.address);
    String user = System.getenv("USER");
    OperatorActions.Pause pause = (OperatorActions.Pause) parsed.subcommand().commandSpec().userObject();
    assertEquals(user == null || user.isEmpty() ? "farrier-cli" : user, pause.by);
  }
}
