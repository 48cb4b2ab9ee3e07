package dev.farrier.sandbox.bench.peer;

import dev.farrier.localstack.LocalStack;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Karpenter's own controller with its kwok cloud provider ({@code bin/karpenter-kwok}, built by {@code tools/install.sh
 * karpenter} from the pinned {@code sigs.k8s.io/karpenter}), on a local stack without Temporal or moto: its CRDs, a
 * {@code KWOKNodeClass} whose nodes register after the same delay as the simulated cloud's, and the generated
 * catalogue. It takes its settings from the environment only (a flag it does not know stops it) and creates the Node
 * objects itself, annotated so that the stack's kwok plays them.
 */
final class KarpenterPeer implements PeerController {
  static final String VERSION_FILE_STAMP = "karpenter-kwok";
  static final String NODE_CLASS = "default";

  private final LocalStack stack;
  private final KubernetesClient kube;
  private final long pid;
  private final String version;

  private KarpenterPeer(LocalStack stack, KubernetesClient kube, long pid, String version) {
    this.stack = stack;
    this.kube = kube;
    this.pid = pid;
    this.version = version;
  }

  /** The controller's binary and its CRDs, where {@code tools/install.sh} puts them beside the stack's binaries. */
  static Path binary(Path binDir) {
    return binDir.resolve("karpenter-kwok");
  }

  static Path crds(Path binDir) {
    return binDir.getParent().resolve("karpenter-crds");
  }

  static KarpenterPeer start(Path runDir, KwokCatalogue catalogue, int controlPlaneQps, OptionalLong memoryLimitBytes,
      String nodeRegistrationDelay) throws IOException {
    Files.createDirectories(runDir);
    var stack = LocalStack.builder().runDir(runDir.resolve("stack")).temporal(false).moto(false).controlPlaneQps(controlPlaneQps).start();
    try {
      Path binary = binary(stack.binDir());
      if (!Files.isExecutable(binary) || !Files.isDirectory(crds(stack.binDir()))) {
        throw new IllegalStateException(binary + " or " + crds(stack.binDir()) + " is missing: run `make tools` (tools/install.sh karpenter)");
      }
      var kube = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(stack.kubeconfig()))).build();
      installCrds(kube, crds(stack.binDir()));
      kube.genericKubernetesResources("karpenter.kwok.sh/v1alpha1", "KWOKNodeClass").resource(new GenericKubernetesResourceBuilder()
          .withApiVersion("karpenter.kwok.sh/v1alpha1").withKind("KWOKNodeClass").withNewMetadata().withName(NODE_CLASS).endMetadata()
          .addToAdditionalProperties("spec", Map.of("nodeRegistrationDelay", nodeRegistrationDelay)).build()).serverSideApply();
      Path types = catalogue.write(runDir.resolve("instance_types.json"));
      int health = stack.freePort();
      var env = new java.util.LinkedHashMap<String, String>();
      env.put("KUBECONFIG", stack.kubeconfig().toString());
      env.put("DISABLE_LEADER_ELECTION", "true");
      env.put("METRICS_PORT", Integer.toString(stack.freePort()));
      env.put("HEALTH_PROBE_PORT", Integer.toString(health));
      env.put("INSTANCE_TYPES_FILE_PATH", types.toString());
      env.put("LOG_LEVEL", "info");
      memoryLimitBytes.ifPresent(bytes -> env.put("MEMORY_LIMIT", Long.toString(bytes)));
      long pid = stack.startProcess("karpenter", List.of(binary.toString()), env, URI.create("http://127.0.0.1:" + health + "/readyz"));
      return new KarpenterPeer(stack, kube, pid, versionOf(stack.binDir()));
    } catch (IOException | RuntimeException e) {
      stack.close();
      throw e;
    }
  }

  private static void installCrds(KubernetesClient kube, Path dir) throws IOException {
    List<Path> files;
    try (Stream<Path> list = Files.list(dir)) {
      files = list.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
    for (Path file : files) {
      try (InputStream in = Files.newInputStream(file)) {
        CustomResourceDefinition crd = kube.apiextensions().v1().customResourceDefinitions().load(in).item();
        kube.resource(crd).serverSideApply();
        kube.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName()).waitUntilCondition(c -> c != null
            && c.getStatus() != null && c.getStatus().getConditions() != null
            && c.getStatus().getConditions().stream().anyMatch(x -> "Established".equals(x.getType()) && "True".equals(x.getStatus())),
            60, TimeUnit.SECONDS);
      }
    }
  }

  /** The version install.sh built (its stamp: version and Go version), for the report. */
  private static String versionOf(Path binDir) {
    Path stamp = binDir.getParent().resolve("stamps").resolve(VERSION_FILE_STAMP);
    try {
      return Files.isRegularFile(stamp) ? Files.readString(stamp).strip().split("\\s+")[0] : "unknown version";
    } catch (IOException e) {
      return "unknown version";
    }
  }

  @Override
  public String name() {
    return "Karpenter " + version + " (kwok provider)";
  }

  @Override
  public KubernetesClient kube() {
    return kube;
  }

  @Override
  public Map<String, String> nodeClassRef() {
    return Map.of("group", "karpenter.kwok.sh", "kind", "KWOKNodeClass", "name", NODE_CLASS);
  }

  @Override
  public long controllerPid() {
    return pid;
  }

  @Override
  public OptionalLong serverPid() {
    return OptionalLong.empty();
  }

  @Override
  public void close() {
    kube.close();
    stack.close();
  }
}
