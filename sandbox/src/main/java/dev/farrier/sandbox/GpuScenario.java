package dev.farrier.sandbox;

import dev.farrier.activities.cloud.simulated.AmiCatalog;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A pod asking for an NVIDIA GPU, on a NodePool of NVIDIA types whose EC2NodeClass has an {@code al2023@latest}
 * alias: Farrier launches a GPU type from the alias's NVIDIA image (not the standard one), the node registers before
 * its device plugin reports the GPU ({@link #DEVICE_PLUGIN_DELAY} in the simulated kubelet, as the NVIDIA device plugin
 * DaemonSet starts on EKS), the claim is Initialized only once it does, and only then does the scheduler bind the pod.
 */
public final class GpuScenario {
  public static final String NODE_POOL = "gpu";
  public static final String POD = "cuda-job";
  public static final String GPU = "nvidia.com/gpu";
  /** The simulated device plugin's delay the sandbox's worker runs with in this scenario. */
  public static final String DEVICE_PLUGIN_DELAY = "10s";

  private final KubernetesClient kube;
  private final String cluster;
  private final AmiCatalog amis;
  private final Duration timeout;

  /**
   * What happened, with the times as the objects and the polling saw them.
   *
   * @param boundBeforeGpu whether the pod was ever seen bound to the node while it reported no GPU (it must not be)
   */
  public record Played(String nodeClaim, String instanceType, String imageName, String node, Instant registeredAt,
      Instant gpuReportedAt, Instant initializedAt, Instant podBoundAt, boolean boundBeforeGpu) {}

  public GpuScenario(KubernetesClient kube, String cluster, AmiCatalog amis, Duration timeout) {
    this.kube = kube;
    this.cluster = cluster;
    this.amis = amis;
    this.timeout = timeout;
  }

  /** Applies the NodePool, its class and the pod, and follows the pod until it runs on its GPU node. */
  public Played play() {
    kube.load(new ByteArrayInputStream(manifest().replace("<<CLUSTER_NAME>>", cluster)
        .replace("<<KARPENTER_NODE_IAM_ROLE_NAME>>", "KarpenterNodeRole-" + cluster).getBytes(StandardCharsets.UTF_8))).serverSideApply();
    var registered = Await.until("the GPU pool's node to register", timeout, () -> claims().stream()
        .filter(c -> DriftScenario.status(c).get("nodeName") != null).findFirst().orElse(null), this::diagnostics);
    String claim = registered.getMetadata().getName();
    String nodeName = (String) DriftScenario.status(registered).get("nodeName");
    Node node = kube.nodes().withName(nodeName).get();
    Instant registeredAt = Instant.parse(node.getMetadata().getCreationTimestamp());
    var boundBeforeGpu = new AtomicBoolean(false);
    Instant gpuReportedAt = Await.until("node " + nodeName + " to report its GPU", timeout, () -> {
      boolean gpu = hasGpu(kube.nodes().withName(nodeName).get());
      if (!gpu && nodeName.equals(pod().getSpec().getNodeName())) {
        boundBeforeGpu.set(true);
      }
      return gpu ? Instant.now() : null;
    }, this::diagnostics);
    Pod running = Await.until("pod " + POD + " Running", timeout,
        () -> "Running".equals(pod().getStatus().getPhase()) ? pod() : null, this::diagnostics);
    var bound = running.getStatus().getConditions().stream().filter(c -> "PodScheduled".equals(c.getType())).findFirst().orElseThrow();
    var initialized = Await.until("nodeclaim " + claim + " Initialized", timeout, () -> initialized(claim), this::diagnostics);
    var launched = kube.genericKubernetesResources("karpenter.sh/v1", "NodeClaim").withName(claim).get();
    String imageId = DriftScenario.imageId(launched);
    return new Played(claim, launched.getMetadata().getLabels().get(WellKnown.INSTANCE_TYPE_LABEL),
        amis.findById(imageId).map(i -> i.name()).orElse(imageId), nodeName, registeredAt, gpuReportedAt,
        Instant.parse((String) initialized.get("lastTransitionTime")), Instant.parse(bound.getLastTransitionTime()), boundBeforeGpu.get());
  }

  private List<GenericKubernetesResource> claims() {
    return kube.genericKubernetesResources("karpenter.sh/v1", "NodeClaim").withLabel(WellKnown.NODEPOOL_LABEL, NODE_POOL).list().getItems();
  }

  /** The claim's Initialized condition once it is True, else null. */
  @SuppressWarnings("unchecked")
  private Map<String, Object> initialized(String claim) {
    var conditions = DriftScenario.status(kube.genericKubernetesResources("karpenter.sh/v1", "NodeClaim").withName(claim).get())
        .getOrDefault("conditions", List.of());
    return ((List<Map<String, Object>>) conditions).stream()
        .filter(c -> "Initialized".equals(c.get("type")) && "True".equals(c.get("status"))).findFirst().orElse(null);
  }

  private Pod pod() {
    return kube.pods().inNamespace("default").withName(POD).get();
  }

  private static boolean hasGpu(Node node) {
    Quantity gpus = node == null || node.getStatus() == null || node.getStatus().getAllocatable() == null ? null
        : node.getStatus().getAllocatable().get(GPU);
    return gpus != null && Quantity.getAmountInBytes(gpus).signum() > 0;
  }

  /** The GPU pool's claims and nodes, and the pod, for a timeout's message. */
  private String diagnostics() {
    try {
      var pod = pod();
      return "claims " + claims().stream().map(c -> c.getMetadata().getName() + " " + DriftScenario.status(c)).toList()
          + "\npod " + (pod == null ? "missing" : pod.getSpec().getNodeName() + " " + pod.getStatus().getPhase() + " "
          + pod.getStatus().getConditions());
    } catch (RuntimeException e) {
      return "(diagnostics unavailable: " + e + ")";
    }
  }

  private static String manifest() {
    try (var in = GpuScenario.class.getResourceAsStream("/sandbox/gpu.yaml")) {
      return new String(Objects.requireNonNull(in, "sandbox/gpu.yaml missing").readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Prints what happened. */
  public static void report(Played p, PrintStream out) {
    out.printf("   nodeclaim %s: %s from image %s%n", p.nodeClaim(), p.instanceType(), p.imageName());
    out.printf("   node %s registered %s without its GPU; the device plugin reported %s %.1fs later%n", p.node(), p.registeredAt(), GPU,
        Duration.between(p.registeredAt(), p.gpuReportedAt()).toMillis() / 1000.0);
    out.printf("   claim Initialized %s; pod %s bound %s%s%n", p.initializedAt(), POD, p.podBoundAt(),
        p.boundBeforeGpu() ? " (BOUND BEFORE THE GPU WAS REPORTED)" : ", only once the GPU was there");
  }
}
