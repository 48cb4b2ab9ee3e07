package dev.farrier.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.farrier.workflows.FarrierSearchAttributes;
import dev.farrier.workflows.types.FarrierWorkflows;
import dev.farrier.workflows.TaskQueues;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.CandidateDecision;
import dev.farrier.model.DisruptionCommand;
import dev.farrier.model.DisruptionPlan;
import dev.farrier.workflows.activities.PlanDisruptionRequest;
import dev.farrier.model.DisruptionMethod;
import dev.farrier.workflows.activities.DrainStatus;
import dev.farrier.workflows.reconciler.ClusterReconcilerWorkflow;
import dev.farrier.workflows.reconciler.ReconcilerInput;
import dev.farrier.model.ReconcilerSettings;
import dev.farrier.workflows.replacement.NodeReplacementWorkflow;
import dev.farrier.workflows.replacement.ReplacementInput;
import dev.farrier.workflows.replacement.ReplacementProgress;
import dev.farrier.workflows.testing.CallJournal;
import dev.farrier.workflows.testing.Eventually;
import dev.farrier.workflows.testing.FakeInterruptionActivities;
import dev.farrier.workflows.testing.FakeNodeActivities;
import dev.farrier.workflows.testing.FakeNodeClaimActivities;
import dev.farrier.workflows.testing.FakePlanningActivities;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestEnvironmentOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code farrier list} against a real Temporal dev server ({@code temporal server start-dev}, the binary the local
 * stack uses), because the time-skipping test server has no visibility queries. The real replacement workflow runs on
 * a worker with the activity fakes; drains are scripted per node. Skipped when no {@code temporal} binary is found
 * ({@code $FARRIER_TEMPORAL_BIN}, {@code $FARRIER_CACHE/bin} or {@code ~/.cache/farrier/bin}, then the PATH).
 */
class FarrierCliDevServerTest {
  private static final String CLUSTER = "cli-list";
  private static final String PLAN_CLUSTER = "cli-plan";
  private static final List<String> PODS = List.of("default/web-1", "default/web-2");

  private static Process server;
  private static String address;
  private static TestWorkflowEnvironment worker;

  @BeforeAll
  static void startServerAndReplacements() throws Exception {
    Path binary = temporalBinary();
    Assumptions.assumeTrue(binary != null, "no temporal CLI binary: list runs only against a real server");
    int port = freePort();
    address = "127.0.0.1:" + port;
    List<String> command = new ArrayList<>(List.of(binary.toString(), "server", "start-dev", "--ip", "127.0.0.1",
        "--port", Integer.toString(port), "--headless", "--log-level", "warn",
        "--dynamic-config-value", "frontend.enableServerVersionCheck=false"));
    FarrierSearchAttributes.ALL.forEach(key -> command.addAll(List.of("--search-attribute", key.getName() + "=Keyword")));
    Path log = Files.createDirectories(Path.of("target")).resolve("temporal-dev-server.log");
    server = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();

    worker = TestWorkflowEnvironment.newInstance(TestEnvironmentOptions.newBuilder()
        .setUseExternalService(true).setTarget(address).build());
    var journal = new CallJournal();
    var nodes = new FakeNodeActivities(journal).onDrainStep(request -> switch (request.nodeName()) {
      // "busy": pods still leaving, nothing refuses: running, not blocked.
      case "node-busy-b" -> new DrainStatus(List.of(), PODS, List.of(), List.of());
      case "node-gone-c" -> FakeNodeActivities.drained(PODS);
      default -> FakeNodeActivities.blockedByPdb(PODS, "default/web-pdb");
    });
    var queue = worker.newWorker(TaskQueues.DEFAULT);
    queue.registerWorkflowImplementationTypes(FarrierWorkflows.implementationTypes());
    // A preview (farrier plan) gets a decision for every node; the rounds, only what they disrupt (here nothing).
    var planning = new FakePlanningActivities(journal).onPlanDisruption(request ->
        request.purpose() == PlanDisruptionRequest.Purpose.PREVIEW ? new DisruptionPlan(0, List.of(), List.of(
            new CandidateDecision("plan-a", "node-plan-a", "a", false, "not drifted; not empty: 2 pod(s)"),
            new CandidateDecision("plan-b", "node-plan-b", "a", false, "drifted (image is old) but budget exhausted")), 3)
            : DisruptionPlan.empty(0));
    queue.registerActivitiesImplementations(new FakeNodeClaimActivities(journal), nodes, planning,
        new FakeInterruptionActivities(journal));
    awaitSearchAttributes();
    worker.start();

    WorkflowClient.start(worker.getWorkflowClient().newWorkflowStub(ClusterReconcilerWorkflow.class, WorkflowOptions.newBuilder()
        .setWorkflowId(WorkflowIds.reconciler(PLAN_CLUSTER)).setTaskQueue(TaskQueues.DEFAULT).build())::run,
        new ReconcilerInput(PLAN_CLUSTER, ReconcilerSettings.DEFAULTS, 1, List.of()));
    start(CLUSTER, "blocked-a", "a", "replace");
    start(CLUSTER, "busy-b", "b", "replace");
    start(CLUSTER, "gone-c", "a", "delete");
    start("elsewhere", "other-d", "a", "replace");
    start("cli-actions", "abort-e", "a", "replace");
    // Visibility follows the workflows' upserts a moment later.
    Eventually.await("the replacements listed", () -> json("list", "--all", "--cluster", CLUSTER, "-o", "json"), rows ->
        rows.size() == 3 && has(rows, "blocked-a", "blocker", "PodDisruptionBudget default/web-pdb")
            && has(rows, "busy-b", "phase", "Draining") && has(rows, "gone-c", "status", "Completed"));
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (worker != null) {
      worker.close();
    }
    if (server != null) {
      server.destroy();
      if (!server.waitFor(15, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
  }

  private static void start(String cluster, String nodeClaim, String nodePool, String method) {
    var command = new DisruptionCommand(nodeClaim, FakeNodeClaimActivities.nodeNameOf(nodeClaim), nodePool,
        FakeNodeClaimActivities.instanceIdOf(nodeClaim), DisruptionMethod.of(method), "drifted", "image is old", 2, null);
    var replacement = worker.getWorkflowClient().newWorkflowStub(NodeReplacementWorkflow.class, WorkflowOptions.newBuilder()
        .setWorkflowId(WorkflowIds.disruption(nodeClaim)).setTaskQueue(TaskQueues.DEFAULT).build());
    WorkflowClient.start(replacement::replace, new ReplacementInput(cluster, command, Fixtures.LAUNCH, 2, 30));
  }

  private static FarrierCliTest.Run run(String... args) {
    var cli = new FarrierCli();
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--address", address));
    return FarrierCliTest.execute(cli, all.toArray(String[]::new));
  }

  private static List<JsonNode> json(String... args) {
    var run = run(args);
    assertEquals(0, run.exitCode(), run::toString);
    try {
      JsonNode array = Json.MAPPER.readTree(run.out());
      return StreamSupport.stream(array.spliterator(), false).toList();
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + run.out(), e);
    }
  }

  private static boolean has(List<JsonNode> rows, String nodeClaim, String field, String value) {
    return rows.stream().anyMatch(r -> r.get("nodeClaim").asText().equals(nodeClaim) && r.get(field).asText().equals(value));
  }

  private static List<String> nodeClaims(List<JsonNode> rows) {
    return rows.stream().map(r -> r.get("nodeClaim").asText()).toList();
  }

  @Test
  void listShowsTheClustersRunningReplacementsAsATable() {
    var run = run("list", "--cluster", CLUSTER);
    assertEquals(0, run.exitCode(), run::toString);
    List<String> lines = run.out().lines().toList();

    assertEquals(3, lines.size(), run.out());
    assertTrue(lines.get(0).matches("NODECLAIM +NODE +NODEPOOL +REASON +PHASE +BLOCKED-FOR +BLOCKER"), lines.get(0));
    assertTrue(lines.get(1).matches("blocked-a +node-blocked-a +a +drifted +Draining +\\d+s +PodDisruptionBudget default/web-pdb"),
        lines.get(1));
    assertTrue(lines.get(2).matches("busy-b +node-busy-b +b +drifted +Draining +- +-"), lines.get(2));
  }

  @Test
  void blockedOnlyListsWhatSomethingBlocks() {
    List<JsonNode> rows = json("list", "--cluster", CLUSTER, "--blocked", "-o", "json");

    assertEquals(List.of("blocked-a"), nodeClaims(rows));
    assertTrue(rows.getFirst().get("blockedForSeconds").isIntegralNumber(), rows.toString());
  }

  @Test
  void nodePoolFilters() {
    assertEquals(List.of("busy-b"), nodeClaims(json("list", "--cluster", CLUSTER, "--nodepool", "b", "-o", "json")));
    assertEquals(List.of(), nodeClaims(json("list", "--cluster", CLUSTER, "--nodepool", "none", "-o", "json")));
  }

  @Test
  void allIncludesEndedReplacementsWithTheirStatus() {
    List<JsonNode> rows = json("list", "--cluster", CLUSTER, "--all", "-o", "json");

    assertEquals(List.of("blocked-a", "busy-b", "gone-c"), nodeClaims(rows));
    assertEquals("Completed", rows.get(2).get("status").asText());
    assertEquals("Done", rows.get(2).get("phase").asText());
    var table = run("list", "--cluster", CLUSTER, "--all");
    assertTrue(table.out().lines().toList().get(3).matches("gone-c +node-gone-c +a +drifted +Done +Completed +- +-"), table.out());
  }

  @Test
  void planShowsEveryNodesDecisionFromAFreshPreviewAndHowManyWereLeftOut() {
    var run = run("plan", "--cluster", PLAN_CLUSTER);

    assertEquals(0, run.exitCode(), run::toString);
    List<String> lines = run.out().lines().toList();
    assertTrue(lines.get(0).startsWith("reconciler/" + PLAN_CLUSTER + ": 0 pending pods"), run.out());
    assertTrue(lines.get(1).matches("plan-a +node-plan-a +keep +not drifted; not empty: 2 pod\\(s\\)"), lines.get(1));
    assertTrue(lines.get(2).matches("plan-b +node-plan-b +keep +drifted \\(image is old\\) but budget exhausted"), lines.get(2));
    assertEquals("... and 3 more NodeClaims kept (a plan lists at most 2)", lines.get(3));
  }

  /** The same plan for a script: one JSON object, every decision with its fields, and how many were left out. */
  @Test
  void planInJsonIsOneObjectWithEveryDecision() throws Exception {
    var run = run("plan", "--cluster", PLAN_CLUSTER, "-o", "json");

    assertEquals(0, run.exitCode(), run::toString);
    var json = Json.MAPPER.readTree(run.out());
    assertEquals("reconciler/" + PLAN_CLUSTER, json.get("reconciler").asText());
    assertEquals(0, json.at("/status/pendingPods").asInt());
    assertEquals(List.of("plan-a", "plan-b"), List.of(json.at("/plan/decisions/0/nodeClaim").asText(), json.at("/plan/decisions/1/nodeClaim").asText()));
    assertEquals("drifted (image is old) but budget exhausted", json.at("/plan/decisions/1/reason").asText());
    assertFalse(json.at("/plan/decisions/0/disrupt").asBoolean());
    assertEquals(3, json.at("/plan/omittedDecisions").asInt());
  }

  @Test
  void anEmptyListSaysSo() {
    var run = run("list", "--cluster", "no-such-cluster");
    assertEquals(new FarrierCliTest.Run(0, "", "no running replacements in cluster no-such-cluster\n"), run);
  }

  /** The README's {@code temporal} commands do what the CLI does. */
  @Test
  void theTemporalCliEquivalentsWork() throws Exception {
    String id = WorkflowIds.disruption("abort-e");
    var progress = worker.getWorkflowClient().newWorkflowStub(NodeReplacementWorkflow.class, id);
    Eventually.await("abort-e draining", progress::progress, p -> p.blocker() != null);

    String query = temporal("workflow", "query", "--workflow-id", id, "--type", "progress");
    assertTrue(query.contains("PodDisruptionBudget default/web-pdb"), query);
    String listed = temporal("workflow", "list", "--query", "FarrierBlocker IS NOT NULL AND ExecutionStatus='Running'");
    assertTrue(listed.contains(id), listed);
    String aborted = temporal("workflow", "update", "execute", "--workflow-id", id, "--name", "Abort",
        "--input", "{\"reason\":\"bad AMI\"}");
    assertTrue(aborted.contains("abort accepted in phase Draining: rolling back (bad AMI)"), aborted);
    ReplacementProgress ended = Eventually.await("abort-e aborted", progress::progress, p -> p.phase().equals("Aborted"));
    assertEquals("Aborted", ended.phase());
  }

  private static String temporal(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(temporalBinary().toString()));
    command.addAll(List.of(args));
    command.addAll(List.of("--address", address, "--disable-config-file", "--disable-config-env"));
    var process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "temporal " + String.join(" ", args) + " did not end");
    assertEquals(0, process.exitValue(), out);
    return out;
  }

  /** The dev server registers the search attributes after it starts serving: a query naming one works once it has. */
  private static void awaitSearchAttributes() {
    Eventually.await("the dev server with Farrier's search attributes", () -> {
      try {
        worker.getWorkflowClient().listExecutions("FarrierBlocker IS NOT NULL").findFirst();
        return true;
      } catch (RuntimeException notYet) {
        return false;
      }
    }, ready -> ready);
  }

  private static Path temporalBinary() {
    String configured = System.getenv("FARRIER_TEMPORAL_BIN");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    String cache = System.getenv("FARRIER_CACHE");
    Path cached = (cache != null && !cache.isBlank() ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache", "farrier"))
        .resolve("bin").resolve("temporal");
    if (Files.isExecutable(cached)) {
      return cached;
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      Path onPath = Path.of(dir, "temporal");
      if (!dir.isEmpty() && Files.isExecutable(onPath)) {
        return onPath;
      }
    }
    return null;
  }

  private static int freePort() throws IOException {
    try (var socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
