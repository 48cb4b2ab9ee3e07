package dev.farrier.sandbox;

import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
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
import java.util.stream.Collectors;

/**
 * The fleet the {@code upgrade} and {@code bad-ami} scenarios roll ({@code sandbox/upgrade-fleet.yaml}: six nodes of
 * NodePool {@code fleet}, one {@code fleet-web} pod each under a PDB), and {@code farrier upgrade} run on it as a CI
 * job runs it: a separate process, its progress on stderr, its JSON result on stdout, its exit code.
 */
public final class UpgradeScenario {
  public static final String NODE_POOL = "fleet";
  public static final String NODE_CLASS = "fleet";
  public static final String APP = "fleet-web";
  public static final String NAMESPACE = "default";
  public static final int REPLICAS = 6;
  /** The release after the one the fleet starts on. */
  public static final String GOOD_TARGET = "al2023@v20251103";
  /** The simulated cloud's broken images for the cluster's version: their instances run, their kubelets never join. */
  public static final String BROKEN_TARGET = "name=farrier-sandbox-broken-al2023-*-"
      + SimulatedCloudConfig.DEFAULT_KUBERNETES_VERSION + "-*,owner=self";
  /** A broken canary is noticed after this (the worker's launch registration timeout in these scenarios). */
  public static final String REGISTRATION_TIMEOUT = "60s";
  /** The options both scenarios pass: a canary of one, then batches of two, a short soak. */
  public static final List<String> ROLLOUT_OPTIONS = List.of("--canary", "1", "--batch-size", "2", "--soak", "10s",
      "--gate-timeout", "3m", "--wait", "--timeout", "15m", "-o", "json");

  /** How {@code farrier upgrade} ended. */
  public record CliRun(int exitCode, String stdout, List<String> stderr, Duration took) {}

  private final SandboxEnvironment env;
  private final Duration timeout;

  public UpgradeScenario(SandboxEnvironment env, Duration timeout) {
    this.env = env;
    this.timeout = timeout;
  }

  /** Applies the fleet and waits until its six pods are Ready, one on each of six Farrier nodes; returns node -> image. */
  public Map<String, String> provision() {
    String manifest = resource().replace("<<CLUSTER_NAME>>", env.cluster());
    kube().load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).serverSideApply();
    Await.until(REPLICAS + " " + APP + " pods Ready on " + REPLICAS + " nodes of NodePool " + NODE_POOL, timeout, () -> {
      List<Pod> ready = readyPods();
      var nodes = ready.stream().map(p -> p.getSpec().getNodeName()).distinct().count();
      return ready.size() == REPLICAS && nodes == REPLICAS && imagesByNode().size() == REPLICAS;
    }, this::diagnostics);
    return imagesByNode();
  }

  /**
   * Runs {@code farrier upgrade --nodepool fleet --ami TARGET} with {@link #ROLLOUT_OPTIONS} and {@code more} (such as
   * {@code --rolling}), echoing its stderr to {@code out}.
   */
  public CliRun upgrade(Path farrier, String target, List<String> more, PrintStream out) {
    return run(farrier, upgradeCommand(farrier, target, more), out);
  }

  private static List<String> upgradeCommand(Path farrier, String target, List<String> more) {
    List<String> command = new ArrayList<>(List.of(farrier.toString(), "upgrade", "--nodepool", NODE_POOL, "--ami", target,
        "--by", "sandbox-ci"));
    command.addAll(ROLLOUT_OPTIONS);
    command.addAll(more);
    return command;
  }

  /** Runs {@code command} ({@code farrier ...}) against this sandbox, echoing its stderr to {@code out}. */
  public CliRun run(Path farrier, List<String> command, PrintStream out) {
    return FarrierProcess.run(env, farrier, command, timeout, out, this::diagnostics);
  }

  /**
   * The {@code upgrade} scenario: rolls the fleet to {@link #GOOD_TARGET} and checks what a CI job would: exit code 0, a
   * Succeeded result, every node of the fleet replaced and on the target's images, the NodePool given back. With
   * {@code more} (the {@code upgrade-rolling} scenario: {@code --rolling}) passed to {@code farrier upgrade} too.
   */
  public CliRun playGood(Path farrier, List<String> more, PrintStream out) {
    var before = provision();
    CliRun run = rollTo(farrier, GOOD_TARGET, more, before, out);
    var result = json(run.stdout());
    var after = imagesByNode();
    out.printf("== fleet after: %d nodes on %s%n", after.size(), new java.util.TreeSet<>(after.values()));
    expect(run.exitCode() == 0, "exit code 0, not " + run.exitCode());
    expect("Succeeded".equals(result.get("outcome")), "outcome Succeeded, not " + result.get("outcome"));
    expect(after.size() == REPLICAS, REPLICAS + " fleet nodes, not " + after);
    expect(after.keySet().stream().noneMatch(before::containsKey), "every old node replaced; still there: "
        + after.keySet().stream().filter(before::containsKey).toList());
    expect(((List<?>) result.get("targetImages")).containsAll(after.values()), "every node on the target's images " + result.get("targetImages"));
    expect(rolloutOwner() == null, "the NodePool given back, still owned by " + rolloutOwner());
    expect(nodeClassRolloutAnnotations().isEmpty(), "no rollout annotations left on the EC2NodeClass: " + nodeClassRolloutAnnotations());
    return run;
  }

  /**
   * The {@code bad-ami} scenario: rolls the fleet to {@link #BROKEN_TARGET}, whose nodes never join; checks that the
   * rollout stopped after the canary with a non-zero exit naming the cause, every old node still there, the class on
   * its previous images and the NodePool given back.
   */
  public CliRun playBadAmi(Path farrier, PrintStream out) {
    var before = provision();
    var termsBefore = amiSelectorTerms();
    CliRun run = rollTo(farrier, BROKEN_TARGET, List.of(), before, out);
    var result = json(run.stdout());
    var after = imagesByNode();
    out.printf("== fleet after: %d nodes %s; EC2NodeClass amiSelectorTerms %s%n", after.size(), after.keySet(), amiSelectorTerms());
    expect(run.exitCode() == 5, "exit code 5 (failed, rolled back), not " + run.exitCode());
    expect("Failed".equals(result.get("outcome")), "outcome Failed, not " + result.get("outcome"));
    expect(String.valueOf(result.get("cause")).contains("register"), "the cause names the registration: " + result.get("cause"));
    expect(Integer.valueOf(1).equals(result.get("batches")), "stopped after the canary, not after " + result.get("batches") + " batches");
    expect(after.equals(before), "the old nodes stay: before " + before + ", after " + after);
    expect(termsBefore.equals(amiSelectorTerms()), "the class back on " + termsBefore + ", not " + amiSelectorTerms());
    expect(rolloutOwner() == null, "the NodePool given back, still owned by " + rolloutOwner());
    expect(nodeClassRolloutAnnotations().isEmpty(), "no rollout annotations left on the EC2NodeClass: " + nodeClassRolloutAnnotations());
    return run;
  }

  /** The EC2NodeClass's {@code farrier.dev/rollout} and previous-terms annotations (a rollout removes both when it ends). */
  public Map<String, String> nodeClassRolloutAnnotations() {
    var nodeClass = kube().genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").withName(NODE_CLASS).get();
    Map<String, String> annotations = nodeClass.getMetadata().getAnnotations() == null ? Map.of() : nodeClass.getMetadata().getAnnotations();
    Map<String, String> found = new TreeMap<>();
    for (String key : List.of(WellKnown.ROLLOUT_ANNOTATION, WellKnown.PREVIOUS_AMI_TERMS_ANNOTATION)) {
      if (annotations.containsKey(key)) {
        found.put(key, annotations.get(key));
      }
    }
    return found;
  }

  /** Shows the fleet, runs {@code farrier upgrade} to {@code target} and shows how it ended. */
  private CliRun rollTo(Path farrier, String target, List<String> more, Map<String, String> fleet, PrintStream out) {
    out.printf("== fleet: %d nodes of NodePool %s on %s%n", fleet.size(), NODE_POOL, new java.util.TreeSet<>(fleet.values()));
    List<String> command = upgradeCommand(farrier, target, more);
    out.println("== " + String.join(" ", command));
    CliRun run = run(farrier, command, out);
    out.printf("   exit code %d after %.1fs; result:%n%s", run.exitCode(), run.took().toMillis() / 1000.0, indent(run.stdout()));
    return run;
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> json(String text) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().readValue(text, Map.class);
    } catch (IOException e) {
      throw new IllegalStateException("farrier upgrade -o json printed no JSON: " + text, e);
    }
  }

  private static String indent(String text) {
    return text.lines().map(l -> "     " + l + System.lineSeparator()).collect(Collectors.joining());
  }

  private void expect(boolean holds, String what) {
    if (!holds) {
      throw new IllegalStateException("expected " + what + "\n" + diagnostics());
    }
  }

  /** The fleet's Nodes now, by name, with the image their NodeClaim launched. */
  public Map<String, String> imagesByNode() {
    return PoolClaims.read(kube(), NODE_POOL).imagesByNode();
  }

  /** The EC2NodeClass's {@code amiSelectorTerms} as stored. */
  @SuppressWarnings("unchecked")
  public List<Map<String, Object>> amiSelectorTerms() {
    var nodeClass = kube().genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").withName(NODE_CLASS).get();
    var spec = (Map<String, Object>) nodeClass.getAdditionalProperties().get("spec");
    return (List<Map<String, Object>>) spec.get("amiSelectorTerms");
  }

  /** The NodePool's {@code farrier.dev/rollout}, null once the rollout gave it back. */
  public String rolloutOwner() {
    var pool = kube().genericKubernetesResources("karpenter.sh/v1", "NodePool").withName(NODE_POOL).get();
    return pool.getMetadata().getAnnotations() == null ? null : pool.getMetadata().getAnnotations().get(WellKnown.ROLLOUT_ANNOTATION);
  }

  public List<Pod> readyPods() {
    return readyPods(kube(), NAMESPACE, APP);
  }

  /** The pods of {@code app} (label {@code app}) in {@code namespace} that are Ready and not being deleted. */
  static List<Pod> readyPods(KubernetesClient kube, String namespace, String app) {
    return kube.pods().inNamespace(namespace).withLabel("app", app).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null && p.getStatus().getConditions() != null
            && p.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
        .toList();
  }


  public String diagnostics() {
    try {
      return "fleet nodes " + imagesByNode() + "\n" + kube().pods().inNamespace(NAMESPACE).withLabel("app", APP).list().getItems()
          .stream().map(p -> "  pod " + p.getMetadata().getName() + " node=" + p.getSpec().getNodeName() + " phase="
              + (p.getStatus() == null ? null : p.getStatus().getPhase())).collect(Collectors.joining("\n"));
    } catch (RuntimeException e) {
      return "(diagnostics unavailable: " + e + ")";
    }
  }

  private KubernetesClient kube() {
    return env.kube();
  }

  private static String resource() {
    try (var in = UpgradeScenario.class.getResourceAsStream("/sandbox/upgrade-fleet.yaml")) {
      return new String(Objects.requireNonNull(in, "sandbox/upgrade-fleet.yaml missing").readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
