package dev.farrier.sandbox.bench.peer;

import dev.farrier.sandbox.SandboxEnvironment;
import dev.farrier.sandbox.WorkerProcess;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Farrier as the sandbox runs it: the local stack with Temporal and moto, the chart's RBAC and settings, one worker
 * JVM on the simulated cloud, and an EC2NodeClass on the EKS AL2023 images. The simulated cloud launches from the same
 * catalogue {@link KwokCatalogue} gives Karpenter.
 */
final class FarrierPeer implements PeerController {
  static final String NODE_CLASS = "peer";

  private final SandboxEnvironment env;
  private final WorkerProcess worker;

  private FarrierPeer(SandboxEnvironment env, WorkerProcess worker) {
    this.env = env;
    this.worker = worker;
  }

  static FarrierPeer start(Path runDir, int controlPlaneQps) throws IOException, InterruptedException {
    var env = SandboxEnvironment.start(SandboxEnvironment.recreate(runDir), "peer", 0, controlPlaneQps);
    try {
      var worker = env.startMeasuredWorker();
      env.kube().genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").resource(new GenericKubernetesResourceBuilder()
          .withApiVersion("karpenter.k8s.aws/v1").withKind("EC2NodeClass").withNewMetadata().withName(NODE_CLASS).endMetadata()
          .addToAdditionalProperties("spec", Map.of(
              "amiSelectorTerms", List.of(Map.of("alias", "al2023@v20251020")),
              "role", "KarpenterNodeRole-" + env.cluster(),
              "subnetSelectorTerms", List.of(Map.of("tags", Map.of("karpenter.sh/discovery", env.cluster()))),
              "securityGroupSelectorTerms", List.of(Map.of("tags", Map.of("karpenter.sh/discovery", env.cluster())))))
          .build()).serverSideApply();
      return new FarrierPeer(env, worker);
    } catch (IOException | InterruptedException | RuntimeException e) {
      env.close();
      throw e;
    }
  }

  /** The memory limit the chart gives the worker, which Karpenter gets as its MEMORY_LIMIT. */
  OptionalLong memoryLimitBytes() {
    return env.workerMemoryLimitBytes();
  }

  @Override
  public String name() {
    return "Farrier (one worker; Temporal dev server apart)";
  }

  @Override
  public KubernetesClient kube() {
    return env.kube();
  }

  @Override
  public Map<String, String> nodeClassRef() {
    return Map.of("group", "karpenter.k8s.aws", "kind", "EC2NodeClass", "name", NODE_CLASS);
  }

  @Override
  public long controllerPid() {
    return worker.pid();
  }

  @Override
  public OptionalLong serverPid() {
    Long temporal = env.stack().processes().get("temporal");
    return temporal == null ? OptionalLong.empty() : OptionalLong.of(temporal);
  }

  @Override
  public void close() {
    env.close();
  }
}
