package dev.farrier.starter;

import dev.farrier.workflows.FailureTypes;
import dev.farrier.workflows.TaskQueues;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.GoDurations;
import dev.farrier.model.RolloutPreview;
import dev.farrier.workflows.activities.PreviewRolloutRequest;
import dev.farrier.workflows.replacement.OperatorRequest;
import dev.farrier.workflows.upgrade.AmiTarget;
import dev.farrier.workflows.upgrade.NodePoolUpgradeWorkflow;
import dev.farrier.workflows.upgrade.RolloutPreviewWorkflow;
import dev.farrier.workflows.upgrade.RolloutRemaining;
import dev.farrier.workflows.upgrade.UpgradeInput;
import dev.farrier.workflows.upgrade.UpgradeProgress;
import dev.farrier.workflows.upgrade.UpgradeResult;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.enums.v1.WorkflowIdConflictPolicy;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ApplicationFailure;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code farrier upgrade}: starts (or, run again, attaches to) the fleet upgrade {@code upgrade/<nodepools>/<target>}
 * and, with {@code --wait}, follows it to its end: progress on stderr, the result on stdout, and an exit code a CI job
 * can act on. {@code approve}, {@code abort} and {@code status} act on a running rollout by its id.
 */
@Command(name = "upgrade", description = "Roll the NodePools of one EC2NodeClass to a new AMI: canary first, then "
    + "batches, each gated on the health of the new nodes and the moved pods; stops and rolls back on failure.",
    subcommands = {UpgradeCommand.Approve.class, UpgradeCommand.Abort.class, UpgradeCommand.Status.class,
        UpgradeCommand.Preview.class})
final class UpgradeCommand extends FarrierCommand {
  @Option(names = "--nodepool", paramLabel = "NAME", description = "a NodePool to roll (repeatable; every NodePool of its EC2NodeClass must be named)")
  List<String> nodePools = new ArrayList<>();

  @Option(names = "--nodeclass", paramLabel = "NAME", description = "roll every NodePool of this EC2NodeClass instead")
  String nodeClass;

  @Option(names = "--ami", paramLabel = "TARGET", description = "al2023@v20251103 (alias), ami-0abc[,ami-0def] (ids), "
      + "name=PATTERN[,owner=OWNER][,tag:KEY=VALUE] or tag:KEY=VALUE")
  String ami;

  @Option(names = "--kubernetes-version", paramLabel = "MAJOR.MINOR", description = "instead of --ami: the newest "
      + "EKS-optimized images of the class's AMI family for this Kubernetes version (e.g. 1.35)")
  String kubernetesVersion;

  @Option(names = "--batch-size", defaultValue = "1", paramLabel = "N|N%", description = "nodes per batch after the canary: a count or a percentage of the nodes to roll (default ${DEFAULT-VALUE})")
  String batchSize;

  @Option(names = "--canary", defaultValue = "1", paramLabel = "N", description = "nodes in the first batch (default ${DEFAULT-VALUE})")
  int canary;

  @Option(names = "--soak", defaultValue = "5m", paramLabel = "DURATION", description = "how long each batch's new nodes and moved pods (with --rolling, each replacement's) must stay healthy (default ${DEFAULT-VALUE})")
  String soak;

  @Option(names = "--gate-timeout", defaultValue = "15m", paramLabel = "DURATION", description = "how long they may take to become Ready (default ${DEFAULT-VALUE})")
  String gateTimeout;

  @Option(names = "--approve", description = "wait for `farrier upgrade approve` after the canary passed its gate")
  boolean approve;

  @Option(names = "--rolling", description = "after the canary, keep up to --batch-size replacements in flight and start "
      + "the next as soon as one has passed its own gate (its new node and the moved workloads' pods on it Ready, none "
      + "of their pods crash-looping or restarting through the soak), instead of waiting for a whole batch and its gate")
  boolean rolling;

  @Option(names = "--max-failures", defaultValue = "0", paramLabel = "N", description = "node replacements that may fail before the rollout stops (default ${DEFAULT-VALUE})")
  int maxFailures;

  @Option(names = "--dry-run", description = "start nothing: print the nodes the rollout would replace in its batches, "
      + "what will hold them, their images before and after, and the estimated duration from the NodePools' replacement "
      + "history (exit 0 when it would replace nodes, 8 when nothing, 2 when it would be refused)")
  boolean dryRun;

  @Option(names = "--wait", description = "follow the rollout to its end (progress on stderr, result on stdout)")
  boolean waitForResult;

  @Option(names = "--timeout", defaultValue = "2h", paramLabel = "DURATION", description = "with --wait: give up waiting after this long; the rollout goes on (default ${DEFAULT-VALUE})")
  String timeout;

  @Option(names = "--by", defaultValue = "${env:USER:-farrier-cli}", description = "who starts it, shown in its progress (default ${DEFAULT-VALUE})")
  String by;

  @Option(names = {"-o", "--output"}, defaultValue = "text", paramLabel = "FORMAT", description = "text or json (default ${DEFAULT-VALUE})")
  Output output;

  /** How often {@code --wait} asks for progress; shortened by tests. */
  Duration pollInterval = Duration.ofSeconds(2);

  @Override
  public Integer call() {
    UpgradeInput input = input();
    String id = WorkflowIds.upgrade(input.nodePools(), input.nodeClass(), input.targetText());
    WorkflowClient client = client();
    if (dryRun) {
      if (waitForResult) {
        throw new CliException(ExitCodes.USAGE, "--dry-run starts no rollout, so there is nothing to --wait for");
      }
      return preview(client, input, id);
    }
    boolean attached = running(client, id);
    WorkflowOptions options = WorkflowOptions.newBuilder()
        .setWorkflowId(id)
        .setTaskQueue(TaskQueues.DEFAULT)
        // The same CI job run again attaches to the rollout it started; an ended one may be started again.
        .setWorkflowIdConflictPolicy(WorkflowIdConflictPolicy.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING)
        .setWorkflowIdReusePolicy(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE)
        .build();
    NodePoolUpgradeWorkflow workflow = client.newWorkflowStub(NodePoolUpgradeWorkflow.class, options);
    WorkflowClient.start(workflow::upgrade, input);
    err().println((attached ? "attached to running rollout " : "started rollout ") + id);
    err().flush();
    if (!waitForResult) {
      out().println(output == Output.JSON ? Json.write(Map.of("workflowId", id, "attached", attached)) : id);
      return ExitCodes.DONE;
    }
    return follow(client, id, Duration.ofSeconds(seconds("--timeout", timeout)));
  }

  /**
   * {@code --dry-run}: the preview workflow {@code preview/<nodepools>/<target>/<suffix>} reads what the rollout would
   * do (the CLI reaches Temporal only; the cluster and the cloud are the worker's). It starts nothing else. When the
   * rollout already runs, the real command would attach to it: the preview is then of what it has left, as
   * {@code farrier upgrade preview <id>} shows it.
   */
  private int preview(WorkflowClient client, UpgradeInput input, String id) {
    if (running(client, id)) {
      err().println("rollout " + id + " is running: `farrier upgrade` would attach to it; what it has left"
          + " (farrier upgrade preview " + id + "):");
      err().flush();
      NodePoolUpgradeWorkflow rollout = client.newWorkflowStub(NodePoolUpgradeWorkflow.class, id);
      return runPreview(client, left(id, WorkflowCalls.on(client, "rollout", id, rollout::remaining)), output, out());
    }
    return runPreview(client, input.previewRequest(id, null, null, null), output, out());
  }

  /**
   * Runs the preview workflow on {@code request} and prints its answer. Each preview has an id of its own (a random
   * suffix, never reused): two CI jobs asking with different flags never get each other's answer.
   */
  static int runPreview(WorkflowClient client, PreviewRolloutRequest request, Output output, PrintWriter out) {
    String previewId = WorkflowIds.preview(request.target().workflowId()) + "/" + UUID.randomUUID().toString().substring(0, 8);
    WorkflowOptions options = WorkflowOptions.newBuilder()
        .setWorkflowId(previewId)
        .setTaskQueue(TaskQueues.DEFAULT)
        .setWorkflowExecutionTimeout(PREVIEW_RUN_TIMEOUT)
        .setWorkflowIdReusePolicy(WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
        .build();
    RolloutPreviewWorkflow workflow = client.newWorkflowStub(RolloutPreviewWorkflow.class, options);
    WorkflowClient.start(workflow::preview, request);
    try {
      RolloutPreview preview = client.newUntypedWorkflowStub(previewId)
          .getResult(PREVIEW_TIMEOUT.toSeconds(), TimeUnit.SECONDS, RolloutPreview.class);
      return PreviewOutput.print(preview, output, out);
    } catch (WorkflowFailedException e) {
      throw refusal(previewId, e);
    } catch (TimeoutException e) {
      throw new CliException(ExitCodes.ERROR, previewId + ": no answer within " + PREVIEW_TIMEOUT.toSeconds()
          + "s: is a Farrier worker polling task queue " + TaskQueues.DEFAULT + "?");
    }
  }

  /** The preview's input from a running rollout's answer, or its refusal (exit 3, in the rollout's own words). */
  static PreviewRolloutRequest left(String id, RolloutRemaining answer) {
    if (answer.refused() != null) {
      throw new CliException(ExitCodes.REFUSED, id + ": refused: " + answer.refused());
    }
    return answer.preview();
  }

  /**
   * How long the preview workflow may run: longer than its activity's retries ({@code ActivityStubs.previewOptions},
   * 2 minutes), so a failing read surfaces as the activity's failure, not as a workflow timeout.
   */
  static final Duration PREVIEW_RUN_TIMEOUT = Duration.ofSeconds(150);

  /** How long the CLI waits for the preview: longer than the workflow may run, so its own end is what the user sees. */
  static final Duration PREVIEW_TIMEOUT = Duration.ofMinutes(3);

  /** The input, or exit code 2 saying what is wrong. */
  UpgradeInput input() {
    boolean byVersion = kubernetesVersion != null && !kubernetesVersion.isBlank();
    if ((ami == null || ami.isBlank()) && !byVersion) {
      throw new CliException(ExitCodes.USAGE, "--ami (the AMI to roll to) or --kubernetes-version is required");
    }
    AmiTarget target = null;
    if (ami != null && !ami.isBlank()) {
      try {
        target = AmiTarget.parse(ami);
      } catch (IllegalArgumentException e) {
        throw new CliException(ExitCodes.USAGE, e.getMessage());
      }
    }
    UpgradeInput input = new UpgradeInput(parent.cluster, nodePools, nodeClass, target, byVersion ? kubernetesVersion.strip() : null,
        batchSize, canary,
        seconds("--soak", soak), seconds("--gate-timeout", gateTimeout), approve, maxFailures, rolling, by, null);
    String problem = input.problem();
    if (problem != null) {
      throw new CliException(ExitCodes.USAGE, problem);
    }
    return input;
  }

  private static long seconds(String option, String text) {
    Long millis = "Never".equalsIgnoreCase(text == null ? "" : text.strip()) ? null : GoDurations.toMillis(text);
    if (millis == null) {
      throw new CliException(ExitCodes.USAGE, option + " '" + text + "' is not a duration such as 0s, 90s, 5m or 1h30m");
    }
    return millis / 1000;
  }

  /** Prints progress while the rollout runs, then its result; the exit code says how it ended. */
  private int follow(WorkflowClient client, String id, Duration limit) {
    Instant deadline = parent.clock.instant().plus(limit);
    WorkflowStub untyped = client.newUntypedWorkflowStub(id);
    NodePoolUpgradeWorkflow typed = client.newWorkflowStub(NodePoolUpgradeWorkflow.class, id);
    String last = null;
    while (running(client, id)) {
      try {
        UpgradeProgress progress = typed.progress();
        String line = progressLine(id, progress, parent.clock.instant()) + replacementsHeld(client, progress);
        if (!line.equals(last)) {
          err().println(line);
          err().flush();
          last = line;
        }
      } catch (RuntimeException e) {
        // The query can fail while the rollout closes; its result is read below.
      }
      if (!parent.clock.instant().isBefore(deadline)) {
        if (output == Output.JSON) {
          out().println(Json.write(Map.of("workflowId", id, "outcome", "Running", "timedOut", true)));
        }
        throw new CliException(ExitCodes.TIMED_OUT, "gave up waiting after " + limit.toSeconds() + "s; rollout " + id
            + " goes on (run the same command again to attach, or `farrier upgrade abort " + id + " --reason ...`)");
      }
      sleep();
    }
    try {
      UpgradeResult result = untyped.getResult(UpgradeResult.class);
      out().println(output == Output.JSON ? Json.write(resultJson(id, result)) : resultLine(id, result));
      return UpgradeResult.SUCCEEDED.equals(result.outcome()) ? ExitCodes.DONE : ExitCodes.FAILED;
    } catch (WorkflowFailedException e) {
      throw refusal(id, e);
    }
  }

  /** A rollout that failed before it touched anything: bad input (2) or a conflicting rollout (3). */
  private static CliException refusal(String id, WorkflowFailedException e) {
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      if (t instanceof ApplicationFailure failure) {
        if (FailureTypes.INVALID_UPGRADE.equals(failure.getType())) {
          return new CliException(ExitCodes.USAGE, id + ": " + failure.getOriginalMessage());
        }
        if (FailureTypes.ROLLOUT_CONFLICT.equals(failure.getType())) {
          return new CliException(ExitCodes.REFUSED, id + ": refused: " + failure.getOriginalMessage());
        }
      }
    }
    return new CliException(ExitCodes.ERROR, id + ": " + WorkflowCalls.describe(e.getCause() == null ? e : e.getCause(), ""));
  }

  private void sleep() {
    try {
      Thread.sleep(pollInterval);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(ExitCodes.ERROR, "interrupted");
    }
  }

  private static boolean running(WorkflowClient client, String id) {
    try {
      return client.newUntypedWorkflowStub(id).describe().getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
    } catch (WorkflowNotFoundException e) {
      return false;
    }
  }

  /**
   * What holds the batch's replacements ({@code disrupt/<nodeclaim>}: a PodDisruptionBudget, do-not-disrupt pods, a
   * failed step), asked of each; empty when nothing does or a replacement does not answer.
   */
  static String replacementsHeld(WorkflowClient client, UpgradeProgress p) {
    StringBuilder held = new StringBuilder();
    for (String claim : p.current()) {
      try {
        var replacement = client.newWorkflowStub(dev.farrier.workflows.replacement.NodeReplacementWorkflow.class,
            WorkflowIds.disruption(claim)).progress();
        if (replacement.blockedBy() != null) {
          held.append("; ").append(WorkflowIds.disruption(claim)).append(' ').append(replacement.phase())
              .append(", blocked by ").append(replacement.blockedBy());
        }
      } catch (RuntimeException e) {
        // Not started yet, or already closed: nothing holds it.
      }
    }
    return held.toString();
  }

  static String progressLine(String id, UpgradeProgress p, Instant now) {
    StringBuilder line = new StringBuilder(id).append(": ").append(p.phase());
    if (p.batch() > 0) {
      line.append(", batch ").append(p.batch());
    }
    line.append(", ").append(p.replaced()).append('/').append(p.total()).append(" replaced");
    if (p.failures() > 0) {
      line.append(", ").append(p.failures()).append(" failed");
    }
    if (p.blocker() != null) {
      line.append("; blocked");
      if (p.blockedSinceMillis() != null) {
        line.append(" for ").append(BlockedFor.format(Math.max(0, now.toEpochMilli() - p.blockedSinceMillis()) / 1000));
      }
      line.append(" by ").append(p.blocker());
    }
    return line.toString();
  }

  static String resultLine(String id, UpgradeResult r) {
    String where = "NodePools " + r.nodePools() + " of EC2NodeClass " + r.nodeClass();
    if (UpgradeResult.SUCCEEDED.equals(r.outcome())) {
      return id + ": Succeeded: " + r.replaced() + " node(s) replaced in " + r.batches() + " batch(es); " + where + " on "
          + r.target() + " " + r.targetImages();
    }
    return id + ": " + r.outcome() + ": " + r.cause() + "; rolled back (" + r.rolledBack() + " new node(s) replaced by"
        + " nodes on the previous images, " + r.replaced() + " replaced before it stopped); " + where + " on their previous images";
  }

  static Map<String, Object> resultJson(String id, UpgradeResult r) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("workflowId", id);
    json.put("outcome", r.outcome());
    json.put("cause", r.cause());
    json.put("nodePools", r.nodePools());
    json.put("nodeClass", r.nodeClass());
    json.put("target", r.target());
    json.put("targetImages", r.targetImages());
    json.put("batches", r.batches());
    json.put("replaced", r.replaced());
    json.put("total", r.total());
    json.put("failures", r.failures());
    json.put("rolledBack", r.rolledBack());
    return json;
  }

  /** What the subcommands share: the rollout's id and the parent's client. */
  abstract static class OnRollout implements Callable<Integer> {
    @ParentCommand
    UpgradeCommand upgrade;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Parameters(paramLabel = "ID", description = "the rollout's workflow id, as `farrier upgrade` printed it (upgrade/<nodepools>/<target>)")
    String id;

    <T> T onRollout(java.util.function.Function<NodePoolUpgradeWorkflow, T> call) {
      WorkflowClient client = upgrade.client();
      NodePoolUpgradeWorkflow rollout = client.newWorkflowStub(NodePoolUpgradeWorkflow.class, id);
      return WorkflowCalls.on(client, "rollout", id, () -> call.apply(rollout));
    }
  }

  /** An Update on the rollout with the operator's reason; prints the rollout's answer (a refusal exits 3). */
  abstract static class Action extends OnRollout {
    @Option(names = "--by", defaultValue = "${env:USER:-farrier-cli}", description = "who asks, recorded with the reason (default ${DEFAULT-VALUE})")
    String by;

    abstract String reason();

    abstract String send(NodePoolUpgradeWorkflow rollout, OperatorRequest request);

    @Override
    public Integer call() {
      var request = new OperatorRequest(reason(), by);
      String answer = onRollout(r -> send(r, request));
      spec.commandLine().getOut().println(answer);
      return ExitCodes.DONE;
    }
  }

  @Command(name = "approve", description = "Let a rollout waiting after its canary (AwaitingApproval) go on.")
  static final class Approve extends Action {
    @Option(names = "--reason", description = "why, recorded in the rollout's history")
    String reason;

    @Override
    String reason() {
      return reason;
    }

    @Override
    String send(NodePoolUpgradeWorkflow rollout, OperatorRequest request) {
      return rollout.approve(request);
    }
  }

  @Command(name = "abort", description = "Stop a rollout and roll it back (previous images; the nodes it launched are replaced back).")
  static final class Abort extends Action {
    @Option(names = "--reason", required = true, description = "why: the rollout's result says it")
    String reason;

    @Override
    String reason() {
      return reason;
    }

    @Override
    String send(NodePoolUpgradeWorkflow rollout, OperatorRequest request) {
      return rollout.abort(request);
    }
  }

  @Command(name = "preview", description = "What a running rollout has left, as --dry-run shows a new one: the nodes "
      + "still to replace in their batches, the replacements in flight, what holds them, images and the estimate. Changes nothing.")
  static final class Preview extends OnRollout {
    @Option(names = {"-o", "--output"}, defaultValue = "text", paramLabel = "FORMAT", description = "text or json (default ${DEFAULT-VALUE})")
    Output output;

    @Override
    public Integer call() {
      return runPreview(upgrade.client(), left(id, onRollout(NodePoolUpgradeWorkflow::remaining)), output,
          spec.commandLine().getOut());
    }
  }

  @Command(name = "status", description = "A rollout's progress: phase, batch, nodes replaced, what holds it.")
  static final class Status extends OnRollout {
    @Option(names = {"-o", "--output"}, defaultValue = "text", paramLabel = "FORMAT", description = "text or json (default ${DEFAULT-VALUE})")
    Output output;

    @Override
    public Integer call() {
      UpgradeProgress progress = onRollout(NodePoolUpgradeWorkflow::progress);
      spec.commandLine().getOut().println(output == Output.JSON ? Json.write(progress)
          : progressLine(id, progress, upgrade.parent.clock.instant()));
      return ExitCodes.DONE;
    }
  }
}
