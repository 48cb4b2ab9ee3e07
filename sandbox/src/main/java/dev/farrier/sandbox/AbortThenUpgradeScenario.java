package dev.farrier.sandbox;

import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.WellKnown;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The {@code abort-then-upgrade} scenario (issue 38, as a CI job met it): one EC2NodeClass {@code h10} shared by two
 * NodePools of two architectures ({@code sandbox/upgrade-two-arch.yaml}); a rollout to a Kubernetes version aborted while
 * its canary replacement runs; then at once a rollout to the next AMI release with {@code --wait}. It must end Succeeded
 * with exit 0 only with every node of both NodePools on the target's images, the node whose replacement the abort
 * stopped included, and nothing left that marks a node as held or in flight.
 */
public final class AbortThenUpgradeScenario {
  public static final String NODE_CLASS = "h10";
  public static final List<String> NODE_POOLS = List.of("h10-arm", "h10-x86");
  static final Map<String, Integer> REPLICAS = Map.of("h10-x86-web", 3, "h10-arm-web", 2);
  public static final String NAMESPACE = "default";
  public static final String FIRST_TARGET = "1.35";
  public static final String TARGET = "al2023@v20251103";

  /** What the scenario saw: the aborted rollout's end, the second rollout's run, and the fleet before and after. */
  public record Played(UpgradeScenario.CliRun aborted, UpgradeScenario.CliRun rollout, Map<String, String> before,
      Map<String, String> after, String abortedDuring) {}

  private final SandboxEnvironment env;
  private final Duration timeout;

  public AbortThenUpgradeScenario(SandboxEnvironment env, Duration timeout) {
    this.env = env;
    this.timeout = timeout;
  }

  public Played play(Path farrier, PrintStream out) {
    String manifest = resource().replace("<<CLUSTER_NAME>>", env.cluster());
    env.kube().load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).serverSideApply();
    Await.until("5 web pods Ready, one a node, on 3 amd64 and 2 arm64 nodes of EC2NodeClass " + NODE_CLASS, timeout, () -> {
      boolean ready = REPLICAS.entrySet().stream().allMatch(e -> UpgradeScenario.readyPods(env.kube(), NAMESPACE, e.getKey()).stream()
          .map(p -> p.getSpec().getNodeName()).distinct().count() == e.getValue());
      return ready && imagesByNode().size() == 5;
    }, this::diagnostics);
    Map<String, String> before = imagesByNode();
    out.printf("== fleet: %d nodes of %s on %s%n", before.size(), NODE_POOLS, new TreeSet<>(before.values()));

    String first = WorkflowIds.upgrade(List.of(), NODE_CLASS, "k8s-" + FIRST_TARGET);
    cli(farrier, out, "upgrade", "--nodeclass", NODE_CLASS, "--kubernetes-version", FIRST_TARGET, "--canary", "1", "--approve",
        "--by", "sandbox-ci");
    String canary = Await.until("the canary's replacement of " + first + " running", timeout, this::replacementRunning,
        this::diagnostics);
    out.println("== the canary's replacement disrupt/" + canary + " runs: aborting " + first);
    cli(farrier, out, "upgrade", "abort", first, "--reason", "wrong target, rolling to " + TARGET + " instead", "--by", "sandbox-ci");
    Await.until(first + " closed", timeout, () -> status(first) != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
        ? Boolean.TRUE : null, this::diagnostics);
    UpgradeScenario.CliRun aborted = cli(farrier, out, "upgrade", "status", first, "-o", "json");

    List<String> command = List.of(farrier.toString(), "upgrade", "--nodeclass", NODE_CLASS, "--ami", TARGET, "--canary", "1",
        "--batch-size", "50%", "--soak", "5s", "--gate-timeout", "3m", "--wait", "--timeout", "15m", "-o", "json", "--by",
        "sandbox-ci");
    out.println("== " + String.join(" ", command));
    UpgradeScenario.CliRun rollout = run(farrier, command, out);
    Map<String, String> after = imagesByNode();
    out.printf("   exit code %d after %.1fs: %s%n== fleet after: %s%n", rollout.exitCode(), rollout.took().toMillis() / 1000.0,
        rollout.stdout().strip(), after);
    var result = UpgradeScenario.json(rollout.stdout());
    expect(rollout.exitCode() == 0, "exit code 0, not " + rollout.exitCode());
    expect("Succeeded".equals(result.get("outcome")), "outcome Succeeded, not " + result.get("outcome"));
    // Five, or six when the abort came after the canary's new node was up: it is kept as capacity (and replaced back).
    expect(after.size() >= 5, "at least the 5 nodes, not " + after);
    expect(after.keySet().stream().noneMatch(before::containsKey), "every old node replaced; still there: "
        + after.keySet().stream().filter(before::containsKey).toList());
    expect(((List<?>) result.get("targetImages")).containsAll(after.values()),
        "every node on the target's images " + result.get("targetImages") + ": " + after);
    expect(abortMarks().isEmpty(), "no node or NodeClaim marked " + WellKnown.FARRIER_ABORTED_ANNOTATION + ": " + abortMarks());
    return new Played(aborted, rollout, before, after, canary);
  }

  /** The claim of the first {@code disrupt/} replacement that runs, else null. */
  private String replacementRunning() {
    var found = env.temporal().listExecutions("WorkflowType = 'NodeReplacementWorkflow' AND ExecutionStatus = 'Running'")
        .map(e -> WorkflowIds.nodeClaimOfDisruption(e.getExecution().getWorkflowId())).filter(Objects::nonNull).findFirst();
    return found.orElse(null);
  }

  private WorkflowExecutionStatus status(String workflowId) {
    return env.temporal().newUntypedWorkflowStub(workflowId).describe().getStatus();
  }

  private UpgradeScenario.CliRun cli(Path farrier, PrintStream out, String... args) {
    List<String> command = new ArrayList<>(List.of(farrier.toString()));
    command.addAll(List.of(args));
    out.println("== " + String.join(" ", command));
    UpgradeScenario.CliRun run = run(farrier, command, out);
    expect(run.exitCode() == 0, String.join(" ", args) + " exits 0, not " + run.exitCode() + ": " + run.stdout());
    return run;
  }

  private UpgradeScenario.CliRun run(Path farrier, List<String> command, PrintStream out) {
    return FarrierProcess.run(env, farrier, command, timeout, out, this::diagnostics);
  }

  /** Each Node of the two NodePools whose claim is not being deleted, with the image its claim launched. */
  public Map<String, String> imagesByNode() {
    Map<String, String> images = new TreeMap<>();
    NODE_POOLS.forEach(pool -> images.putAll(PoolClaims.read(env.kube(), pool).imagesByNode()));
    return images;
  }

  /** The Nodes and NodeClaims that carry {@code farrier.dev/replacement-aborted}. */
  public List<String> abortMarks() {
    List<String> marked = new ArrayList<>();
    env.kube().nodes().list().getItems().stream()
        .filter(n -> n.getMetadata().getAnnotations() != null
            && n.getMetadata().getAnnotations().containsKey(WellKnown.FARRIER_ABORTED_ANNOTATION))
        .forEach(n -> marked.add("node " + n.getMetadata().getName()));
    env.kube().genericKubernetesResources("karpenter.sh/v1", "NodeClaim").list().getItems().stream()
        .filter(c -> c.getMetadata().getAnnotations() != null
            && c.getMetadata().getAnnotations().containsKey(WellKnown.FARRIER_ABORTED_ANNOTATION))
        .forEach(c -> marked.add("nodeclaim " + c.getMetadata().getName()));
    return marked;
  }


  private String diagnostics() {
    try {
      return "fleet nodes " + imagesByNode() + "; abort marks " + abortMarks();
    } catch (RuntimeException e) {
      return "(diagnostics unavailable: " + e + ")";
    }
  }

  private void expect(boolean holds, String what) {
    if (!holds) {
      throw new IllegalStateException("expected " + what + "\n" + diagnostics());
    }
  }

  private static String resource() {
    try (var in = AbortThenUpgradeScenario.class.getResourceAsStream("/sandbox/upgrade-two-arch.yaml")) {
      return new String(Objects.requireNonNull(in, "sandbox/upgrade-two-arch.yaml missing").readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
