package dev.farrier.sandbox;

import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * NodeOverlays on the local stack ({@code sandbox/overlay.yaml}): an overlay prices r5.xlarge at $0.001/h, so the pod
 * of a NodePool of m5 and r5 types runs on an r5.xlarge (without it, an m5.large); two overlays of equal weight that
 * adjust m5.large's price differently conflict, and the worker's status loop says so on the one left out.
 */
public final class OverlayScenario {
  public static final String NODE_POOL = "overlay";
  public static final String POD = "overlay-pod";
  public static final String CHEAPENED = "r5-discount";
  public static final String CHEAPENED_TYPE = "r5.xlarge";
  /** Of the two m5.large markups of weight 5, the one Karpenter's order takes second (the name earlier in the alphabet). */
  public static final String CONFLICTING = "m5-markup-a";
  public static final String STANDING = "m5-markup-b";

  private final KubernetesClient kube;
  private final String cluster;
  private final Duration timeout;

  /** What happened: the type the pod runs on, and each overlay's Ready condition (status, reason, message). */
  public record Played(String node, String instanceType, Map<String, List<String>> ready) {}

  public OverlayScenario(KubernetesClient kube, String cluster, Duration timeout) {
    this.kube = kube;
    this.cluster = cluster;
    this.timeout = timeout;
  }

  /** Applies the manifest and follows the pod until it runs, and the overlays until each has its Ready condition. */
  public Played play() {
    kube.load(new ByteArrayInputStream(manifest().replace("<<CLUSTER_NAME>>", cluster)
        .replace("<<KARPENTER_NODE_IAM_ROLE_NAME>>", "KarpenterNodeRole-" + cluster).getBytes(StandardCharsets.UTF_8))).serverSideApply();
    Pod running = Await.until("pod " + POD + " Running", timeout,
        () -> "Running".equals(pod().getStatus().getPhase()) ? pod() : null, this::diagnostics);
    String node = running.getSpec().getNodeName();
    String type = kube.nodes().withName(node).get().getMetadata().getLabels().get(WellKnown.INSTANCE_TYPE_LABEL);
    // Until the conflict is seen: a status pass that ran while only some overlays were applied saw none.
    Map<String, List<String>> ready = Await.until("every NodeOverlay's Ready condition, " + CONFLICTING + "'s False", timeout, () -> {
      Map<String, List<String>> all = new java.util.TreeMap<>();
      for (String name : List.of(CHEAPENED, CONFLICTING, STANDING)) {
        var condition = ready(name);
        if (condition == null) {
          return null;
        }
        all.put(name, condition);
      }
      return "False".equals(all.get(CONFLICTING).getFirst()) ? all : null;
    }, this::diagnostics);
    return new Played(node, type, ready);
  }

  /** The overlay's Ready condition as [status, reason, message], or null while it has none. */
  @SuppressWarnings("unchecked")
  private List<String> ready(String overlay) {
    GenericKubernetesResource o = kube.genericKubernetesResources("karpenter.sh/v1alpha1", "NodeOverlay").withName(overlay).get();
    var status = o == null ? null : (Map<String, Object>) o.getAdditionalProperties().get("status");
    var conditions = status == null ? List.<Map<String, Object>>of() : (List<Map<String, Object>>) status.getOrDefault("conditions", List.of());
    return conditions.stream().filter(c -> "Ready".equals(c.get("type")))
        .map(c -> List.of((String) c.get("status"), (String) c.get("reason"), (String) c.get("message"))).findFirst().orElse(null);
  }

  private Pod pod() {
    return kube.pods().inNamespace("default").withName(POD).get();
  }

  private String diagnostics() {
    try {
      var pod = pod();
      var claims = kube.genericKubernetesResources("karpenter.sh/v1", "NodeClaim").withLabel(WellKnown.NODEPOOL_LABEL, NODE_POOL).list()
          .getItems().stream().map(c -> c.getMetadata().getName() + " " + c.getMetadata().getLabels()).toList();
      return "claims " + claims + "\npod " + (pod == null ? "missing" : pod.getSpec().getNodeName() + " " + pod.getStatus().getPhase());
    } catch (RuntimeException e) {
      return "(diagnostics unavailable: " + e + ")";
    }
  }

  private static String manifest() {
    try (var in = OverlayScenario.class.getResourceAsStream("/sandbox/overlay.yaml")) {
      return new String(Objects.requireNonNull(in, "sandbox/overlay.yaml missing").readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Prints what happened. */
  public static void report(Played p, PrintStream out) {
    out.printf("   pod %s runs on node %s, a %s (the type NodeOverlay %s priced at $0.001/h)%n", POD, p.node(), p.instanceType(), CHEAPENED);
    p.ready().forEach((name, ready) -> out.printf("   NodeOverlay %s: Ready=%s %s %s%n", name, ready.get(0), ready.get(1), ready.get(2)));
  }
}
