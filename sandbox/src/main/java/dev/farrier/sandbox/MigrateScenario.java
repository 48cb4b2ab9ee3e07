package dev.farrier.sandbox;

import dev.farrier.activities.cloud.simulated.AmiCatalog;
import dev.farrier.activities.cloud.simulated.SimulatedCloud;
import dev.farrier.activities.cloud.simulated.SimulatedCloudConfig;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code --scenario migrate}: old Karpenter manifests (seed 002's v1alpha5 Provisioner with an inline provider, and a
 * Deployment on the old label and annotation) migrated by {@code farrier migrate --check} as a CI job runs it, the v1
 * output applied as a GitOps tool would, and the Deployment's pods provisioned a node by Farrier.
 */
public final class MigrateScenario {
  public static final String OLD_MANIFESTS = "sandbox/migrate-old.yaml";

  /** What the scenario saw. */
  public record Played(UpgradeScenario.CliRun migrate, Path output, String node, String nodeClaim, String instanceType,
      String capacityType, Map<String, Object> disruption, Object expireAfter, Duration provisioned) {}

  private final SandboxEnvironment env;
  private final DriftScenario helpers;
  private final Duration timeout;

  public MigrateScenario(SandboxEnvironment env, Duration timeout) {
    this.env = env;
    var amis = new BlueprintAmis(AmiCatalog.load(SimulatedCloudConfig.DEFAULT_KUBERNETES_VERSION));
    // The drift scenario's reads of the inflate pods and the claims, and its diagnostics, serve this one too.
    this.helpers = new DriftScenario(env.kube(), env.temporal(), env.cluster(), amis::al2, timeout);
    this.timeout = timeout;
  }

  static String instanceProfile(String cluster) {
    return "KarpenterNodeInstanceProfile-" + cluster;
  }

  public Played play(Path farrier, Path dir, PrintStream out) throws IOException {
    Path old = dir.resolve("old");
    Path migrated = dir.resolve("v1");
    Files.createDirectories(old);
    Files.writeString(old.resolve("karpenter.yaml"), oldManifests().replace("<<CLUSTER_NAME>>", env.cluster()));
    // Seed 002's CloudFormation stack made this profile; the v1alpha5 controller used it by default.
    new SimulatedCloud(SimulatedCloudConfig.defaults(env.cloudDir()).withCluster(env.cluster()))
        .registerInstanceProfile(instanceProfile(env.cluster()), "KarpenterNodeRole-" + env.cluster());
    out.println("== farrier migrate -f " + old + " -o " + migrated + " --check --default-instance-profile "
        + instanceProfile(env.cluster()));
    var run = FarrierProcess.run(env, farrier, List.of(farrier.toString(), "migrate", "-f", old.toString(), "-o",
        migrated.toString(), "--check", "--default-instance-profile", instanceProfile(env.cluster())), timeout, out,
        helpers::diagnostics);
    if (run.exitCode() != 0) {
      throw new IllegalStateException("farrier migrate exited " + run.exitCode() + ": " + run.stderr());
    }
    Path output = migrated.resolve("karpenter.yaml");
    out.println("== the report (" + migrated.resolve("karpenter.yaml.migration.md") + ")");
    Files.readAllLines(migrated.resolve("karpenter.yaml.migration.md")).forEach(l -> out.println("   " + l));
    out.println("== applying the v1 manifests (" + output + ")");
    Instant applied = Instant.now();
    env.kube().load(new ByteArrayInputStream(Files.readAllBytes(output))).serverSideApply();
    var node = Await.until(DriftScenario.REPLICAS + " inflate pods Ready on a node of NodePool default", timeout, () -> {
      var pods = helpers.readyAppPods();
      var nodes = pods.stream().map(p -> p.getSpec().getNodeName()).distinct().toList();
      return pods.size() == DriftScenario.REPLICAS && nodes.stream().allMatch(helpers::farrierNode) ? nodes.getFirst() : null;
    }, helpers::diagnostics);
    Duration took = Duration.between(applied, Instant.now());
    GenericKubernetesResource claim = helpers.claimOfNode(node);
    var labels = env.kube().nodes().withName(node).get().getMetadata().getLabels();
    var pool = env.kube().genericKubernetesResources("karpenter.sh/v1", "NodePool").withName("default").get();
    @SuppressWarnings("unchecked")
    var spec = (Map<String, Object>) pool.getAdditionalProperties().get("spec");
    @SuppressWarnings("unchecked")
    var disruption = (Map<String, Object>) spec.get("disruption");
    @SuppressWarnings("unchecked")
    var template = (Map<String, Object>) ((Map<String, Object>) spec.get("template")).get("spec");
    return new Played(run, output, node, claim.getMetadata().getName(), labels.get(WellKnown.INSTANCE_TYPE_LABEL),
        labels.get(WellKnown.CAPACITY_TYPE_LABEL), disruption, template.get("expireAfter"), took);
  }

  static void report(Played played, PrintStream out) {
    out.printf("   3 inflate pods Ready on %s (nodeclaim %s, %s %s) %.1fs after the apply%n", played.node(), played.nodeClaim(),
        played.capacityType(), played.instanceType(), played.provisioned().toMillis() / 1000.0);
    out.println("   NodePool default as stored: disruption " + played.disruption() + ", expireAfter " + played.expireAfter());
  }

  private static String oldManifests() {
    try (InputStream in = MigrateScenario.class.getResourceAsStream("/" + OLD_MANIFESTS)) {
      return new String(Objects.requireNonNull(in, OLD_MANIFESTS + " missing").readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
