package dev.farrier.sandbox;

import dev.farrier.model.WellKnown;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.upgrade.NodePoolUpgradeWorkflow;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code preview} scenario: {@code farrier upgrade --dry-run} on the {@code upgrade} scenario's fleet (six nodes,
 * a disruption budget of two, one pod made {@code do-not-disrupt}), as a CI job posts it on a pull request: the nodes in
 * the canary and the batches, the held node, the images before and after, the estimate (no history yet), in text and
 * JSON, and nothing moved (no rollout, no replacement, every NodeClaim as it was). Then the same rollout started with
 * {@code --approve}: once its canary is done, {@code farrier upgrade preview <id>} answers what it has left, with the
 * canary's replacement as its history, and a dry run of another rollout of the same NodePool is refused as that rollout
 * would be (exit 3); aborted, the preview is refused.
 */
public final class PreviewScenario {
  /** The release the fleet runs ({@code sandbox/upgrade-fleet.yaml}): a rollout to it has nothing to replace. */
  static final String FLEET_RELEASE = "al2023@v20251020";
  static final List<String> FLAGS = List.of("--nodepool", UpgradeScenario.NODE_POOL, "--ami", UpgradeScenario.GOOD_TARGET,
      "--canary", "1", "--batch-size", "2", "--soak", "10s", "--gate-timeout", "3m", "--by", "sandbox-ci");

  /**
   * What the scenario saw.
   *
   * @param dryRun        {@code --dry-run -o json}
   * @param dryRunText    {@code --dry-run} as text
   * @param before        the fleet's NodeClaims (name -> uid and image), its NodePool's and EC2NodeClass's generation and
   *                      annotations, before the dry runs
   * @param after         the same after them
   * @param workflows     the upgrade and replacement workflows Temporal knows after the dry runs
   * @param nothingToDo   {@code --dry-run} to the image the fleet runs now
   * @param running       {@code farrier upgrade preview <id> -o json} on the rollout after its canary
   * @param refused       the same once the rollout was aborted
   * @param conflicting   {@code --dry-run} of another rollout of the same NodePool while this one runs
   */
  public record Played(UpgradeScenario.CliRun dryRun, UpgradeScenario.CliRun dryRunText, Map<String, String> before,
      Map<String, String> after, List<String> workflows, UpgradeScenario.CliRun nothingToDo, UpgradeScenario.CliRun running,
      UpgradeScenario.CliRun refused, String pinnedNode, UpgradeScenario.CliRun conflicting) {}

  private final SandboxEnvironment env;
  private final UpgradeScenario fleet;
  private final Duration timeout;

  public PreviewScenario(SandboxEnvironment env, Duration timeout) {
    this.env = env;
    this.fleet = new UpgradeScenario(env, timeout);
    this.timeout = timeout;
  }

  public Played play(Path farrier, PrintStream out) {
    var images = fleet.provision();
    String pinnedNode = pinOnePod();
    out.printf("== fleet: %d nodes of NodePool %s on %s; the pod on %s made %s%n", images.size(), UpgradeScenario.NODE_POOL,
        new java.util.TreeSet<>(images.values()), pinnedNode, WellKnown.DO_NOT_DISRUPT_ANNOTATION);
    Map<String, String> before = claims();

    var dryRun = cli(farrier, out, with("--dry-run", "-o", "json"));
    var dryRunText = cli(farrier, out, with("--dry-run"));
    out.print(indent(dryRunText.stdout()));
    var nothing = cli(farrier, out, List.of("upgrade", "--nodepool", UpgradeScenario.NODE_POOL, "--ami", FLEET_RELEASE, "--dry-run"));
    out.print(indent(nothing.stdout()));
    Map<String, String> after = claims();
    List<String> workflows = workflows();
    out.printf("== after the dry runs: %d NodeClaims unchanged of %d; upgrade or replacement workflows: %s%n",
        before.entrySet().stream().filter(e -> e.getValue().equals(after.get(e.getKey()))).count(), before.size(), workflows);

    String id = WorkflowIds.upgrade(List.of(UpgradeScenario.NODE_POOL), null, UpgradeScenario.GOOD_TARGET);
    var started = cli(farrier, out, with("--approve"));
    expect(started.exitCode() == 0, "the rollout started, exit " + started.exitCode());
    var rollout = env.temporal().newWorkflowStub(NodePoolUpgradeWorkflow.class, id);
    Await.until("rollout " + id + " waiting for approval after its canary", timeout,
        () -> "AwaitingApproval".equals(rollout.progress().phase()), fleet::diagnostics);
    var running = cli(farrier, out, List.of("upgrade", "preview", id, "-o", "json"));
    out.print(indent(cli(farrier, out, List.of("upgrade", "preview", id)).stdout()));
    var conflicting = cli(farrier, out, List.of("upgrade", "--nodepool", UpgradeScenario.NODE_POOL, "--ami", FLEET_RELEASE,
        "--dry-run"));
    cli(farrier, out, List.of("upgrade", "abort", id, "--reason", "sandbox: preview seen"));
    var refused = cli(farrier, out, List.of("upgrade", "preview", id));
    out.println("== the preview of the aborted rollout: exit " + refused.exitCode());
    return new Played(dryRun, dryRunText, before, after, workflows, nothing, running, refused, pinnedNode, conflicting);
  }

  /** What the scenario expects of what it saw, as sentences; empty when all holds. */
  @SuppressWarnings("unchecked")
  public static List<String> problems(Played p) {
    List<String> problems = new ArrayList<>();
    check(problems, p.dryRun().exitCode() == 0, "--dry-run exits 0 (it would replace nodes), not " + p.dryRun().exitCode());
    Map<String, Object> preview = UpgradeScenario.json(p.dryRun().stdout());
    List<Map<String, Object>> batches = (List<Map<String, Object>>) preview.get("batches");
    List<Integer> sizes = batches.stream().map(b -> ((List<?>) b.get("nodes")).size()).toList();
    check(problems, sizes.equals(List.of(1, 2, 2)), "a canary of one, then batches of two (the budget's two): " + sizes);
    check(problems, Boolean.TRUE.equals(batches.getFirst().get("canary")), "the first batch is the canary");
    List<Map<String, Object>> held = (List<Map<String, Object>>) preview.get("held");
    check(problems, held.size() == 1 && p.pinnedNode().equals(held.getFirst().get("node")), "the do-not-disrupt pod's node "
        + p.pinnedNode() + " held, in no batch: " + held);
    check(problems, held.stream().flatMap(h -> ((List<Map<String, Object>>) h.get("holds")).stream())
        .anyMatch(h -> "do-not-disrupt".equals(h.get("kind"))), "the held node names its do-not-disrupt pod: " + held);
    check(problems, Integer.valueOf(6).equals(preview.get("total")), "6 nodes to replace, not " + preview.get("total"));
    List<String> targets = (List<String>) preview.get("targetImages");
    for (Map<String, Object> b : batches) {
      for (Map<String, Object> n : (List<Map<String, Object>>) b.get("nodes")) {
        check(problems, n.get("imageBefore") != null && !targets.contains(n.get("imageBefore")) && targets.contains(n.get("imageAfter")),
            n.get("nodeClaim") + " from an old image to a target one: " + n.get("imageBefore") + " -> " + n.get("imageAfter"));
      }
    }
    Map<String, Object> estimate = (Map<String, Object>) preview.get("estimate");
    check(problems, Integer.valueOf(0).equals(estimate.get("samples")) && String.valueOf(estimate.get("basis")).startsWith("no history"),
        "no history before any replacement: " + estimate);
    check(problems, p.dryRunText().stdout().contains("batch 1 (canary)") && p.dryRunText().stdout().contains("estimate: no history"),
        "the text names the canary and the estimate: " + p.dryRunText().stdout());
    check(problems, p.before().equals(p.after()), "no NodeClaim changed: before " + p.before() + ", after " + p.after());
    check(problems, p.workflows().isEmpty(), "no rollout or replacement started by the dry runs: " + p.workflows());
    check(problems, p.nothingToDo().exitCode() == 8, "--dry-run to the image the fleet runs exits 8, not " + p.nothingToDo().exitCode());

    check(problems, p.running().exitCode() == 0, "farrier upgrade preview exits 0, not " + p.running().exitCode());
    Map<String, Object> left = UpgradeScenario.json(p.running().stdout());
    List<Integer> leftSizes = ((List<Map<String, Object>>) left.get("batches")).stream().map(b -> ((List<?>) b.get("nodes")).size()).toList();
    check(problems, Boolean.TRUE.equals(left.get("running")) && leftSizes.equals(List.of(2, 2)),
        "after the canary, two batches of two left: " + leftSizes);
    Map<String, Object> learnt = (Map<String, Object>) left.get("estimate");
    check(problems, ((Number) learnt.get("samples")).intValue() >= 1 && learnt.get("totalSeconds") != null,
        "the canary's replacement is history the estimate uses: " + learnt);
    check(problems, p.conflicting().exitCode() == 3 && String.join("\n", p.conflicting().stderr()).contains("is being upgraded by"),
        "a dry run of another rollout of the running one's NodePool is refused as its claim would be (3), not "
            + p.conflicting().exitCode() + ": " + p.conflicting().stderr());
    check(problems, p.refused().exitCode() == 3 || p.refused().exitCode() == 4,
        "the preview of an aborted rollout is refused (3) or finds it ended (4), not " + p.refused().exitCode());
    return problems;
  }

  private static void check(List<String> problems, boolean holds, String what) {
    if (!holds) {
      problems.add(what);
    }
  }

  /** The flags the scenario rolls with, the subcommand first, then {@code more}. */
  private static List<String> with(String... more) {
    List<String> command = new ArrayList<>(List.of("upgrade"));
    command.addAll(FLAGS);
    command.addAll(List.of(more));
    return command;
  }

  private UpgradeScenario.CliRun cli(Path farrier, PrintStream out, List<String> args) {
    List<String> command = new ArrayList<>(List.of(farrier.toString()));
    command.addAll(args);
    out.println("== farrier " + String.join(" ", args));
    var run = fleet.run(farrier, command, out);
    out.println("   exit code " + run.exitCode());
    return run;
  }

  /** Marks the first fleet pod {@code do-not-disrupt}; returns its node. */
  private String pinOnePod() {
    var pod = fleet.readyPods().getFirst();
    env.kube().pods().inNamespace(UpgradeScenario.NAMESPACE).withName(pod.getMetadata().getName()).edit(p -> {
      Map<String, String> annotations = new java.util.HashMap<>(p.getMetadata().getAnnotations() == null ? Map.of()
          : p.getMetadata().getAnnotations());
      annotations.put(WellKnown.DO_NOT_DISRUPT_ANNOTATION, "true");
      p.getMetadata().setAnnotations(annotations);
      return p;
    });
    return pod.getSpec().getNodeName();
  }

  /**
   * What a rollout would change: the fleet's NodeClaims (name -> uid, image and whether being deleted), and its
   * NodePool's and EC2NodeClass's generation (their spec: the class's image terms) and annotations (the NodePool's
   * {@code farrier.dev/rollout} owner, the class's previous terms).
   */
  public Map<String, String> claims() {
    Map<String, String> claims = new TreeMap<>();
    for (GenericKubernetesResource claim : env.kube().genericKubernetesResources("karpenter.sh/v1", "NodeClaim")
        .withLabel(WellKnown.NODEPOOL_LABEL, UpgradeScenario.NODE_POOL).list().getItems()) {
      Object status = claim.getAdditionalProperties().get("status");
      Object image = status instanceof Map<?, ?> s ? s.get("imageID") : null;
      claims.put(claim.getMetadata().getName(), claim.getMetadata().getUid() + " " + image + " deleting="
          + (claim.getMetadata().getDeletionTimestamp() != null));
    }
    var pool = env.kube().genericKubernetesResources("karpenter.sh/v1", "NodePool").withName(UpgradeScenario.NODE_POOL).get();
    var nodeClass = env.kube().genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass")
        .withName(UpgradeScenario.NODE_CLASS).get();
    claims.put("NodePool/" + UpgradeScenario.NODE_POOL, pool.getMetadata().getGeneration() + " "
        + new TreeMap<>(pool.getMetadata().getAnnotations() == null ? Map.of() : pool.getMetadata().getAnnotations()));
    claims.put("EC2NodeClass/" + UpgradeScenario.NODE_CLASS, nodeClass.getMetadata().getGeneration() + " "
        + new TreeMap<>(nodeClass.getMetadata().getAnnotations() == null ? Map.of() : nodeClass.getMetadata().getAnnotations()));
    return claims;
  }

  /** The rollouts and replacements Temporal knows, by id. */
  private List<String> workflows() {
    return env.temporal().listExecutions("WorkflowType = 'NodePoolUpgradeWorkflow' OR WorkflowType = 'NodeReplacementWorkflow'")
        .map(e -> e.getExecution().getWorkflowId()).sorted().toList();
  }

  private void expect(boolean holds, String what) {
    if (!holds) {
      throw new IllegalStateException("expected " + what + "\n" + fleet.diagnostics());
    }
  }

  private static String indent(String text) {
    return text.lines().map(l -> "     " + l + System.lineSeparator()).collect(java.util.stream.Collectors.joining());
  }
}
