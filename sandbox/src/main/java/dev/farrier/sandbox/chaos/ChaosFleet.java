package dev.farrier.sandbox.chaos;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The soak's fleet ({@code sandbox/chaos-fleet.yaml}): three NodePools of about {@code size} nodes each (one rolled,
 * one consolidating, one on spot), Deployments under PodDisruptionBudgets of both kinds, a do-not-disrupt pod and a
 * DaemonSet tolerating every taint; and what the churn does to it.
 */
public final class ChaosFleet {
  public static final String NAMESPACE = "chaos";
  public static final String ROLLED = "chaos-roll";
  public static final String CONSOLIDATING = "chaos-consolidate";
  public static final String SPOT = "chaos-spot";
  /** The NodePools' disruption budgets as the manifest states them (absolute node counts, no schedule, no reason). */
  public static final Map<String, Integer> BUDGETS = Map.of(ROLLED, 2, CONSOLIDATING, 3, SPOT, 2);
  /** The two AMI releases the drift and the rollouts move between. */
  public static final List<String> RELEASES = List.of("al2023@v20251020", "al2023@v20251103");
  static final String BATCH = "batch";
  static final String SPOT_WEB = "spot-web";

  private final KubernetesClient kube;
  private final String cluster;
  private final int size;

  /** @param size about how many nodes each NodePool holds (the one-pod-a-node Deployments' replicas); 4 at least */
  public ChaosFleet(KubernetesClient kube, String cluster, int size) {
    if (size < 4) {
      throw new IllegalArgumentException("a fleet of " + size + " nodes a NodePool leaves no room for its PDBs; 4 at least");
    }
    this.kube = kube;
    this.cluster = cluster;
    this.size = size;
  }

  public int size() {
    return size;
  }

  /** The spot web Deployment's PDB floor: it is scaled between 70% and 100% of {@link #size}, never below its floor. */
  int spotFloor() {
    return Math.max(1, size / 2);
  }

  /** Applies the fleet on the first release. */
  public void apply() throws IOException {
    kube.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build()).serverSideApply();
    String manifest;
    try (InputStream in = Objects.requireNonNull(getClass().getResourceAsStream("/sandbox/chaos-fleet.yaml"), "chaos-fleet.yaml")) {
      manifest = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    int api = Math.max(2, size * 2 / 5);
    manifest = manifest.replace("<<CLUSTER_NAME>>", cluster).replace("<<RELEASE>>", RELEASES.getFirst())
        .replace("<<SIZE>>", Integer.toString(size)).replace("<<SPOT_FLOOR>>", Integer.toString(spotFloor()))
        .replace("<<API_SIZE>>", Integer.toString(api)).replace("<<API_FLOOR>>", Integer.toString(api - 2));
    kube.load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).serverSideApply();
  }

  /** What is not up yet: Deployments short of ready replicas and pods not Running (empty once the fleet is up). */
  public List<String> notUp() {
    List<String> notUp = new ArrayList<>();
    for (var deployment : kube.apps().deployments().inNamespace(NAMESPACE).list().getItems()) {
      int wanted = deployment.getSpec().getReplicas() == null ? 1 : deployment.getSpec().getReplicas();
      Integer ready = deployment.getStatus() == null ? null : deployment.getStatus().getReadyReplicas();
      if (ready == null || ready < wanted) {
        notUp.add(deployment.getMetadata().getName() + " " + (ready == null ? 0 : ready) + "/" + wanted + " ready");
      }
    }
    kube.pods().inNamespace(NAMESPACE).list().getItems().stream()
        .filter(p -> p.getStatus() == null || !"Running".equals(p.getStatus().getPhase()))
        .map(p -> p.getMetadata().getName() + " not Running").sorted().forEach(notUp::add);
    return notUp;
  }

  /** How many pods of the fleet run. */
  public long running() {
    return kube.pods().inNamespace(NAMESPACE).list().getItems().stream()
        .filter(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase())).count();
  }

  /** Scales {@code deployment} to {@code percent} of {@link #size}; returns the replicas set. */
  int scale(String deployment, int percent) {
    int replicas = Math.max(deployment.equals(SPOT_WEB) ? spotFloor() + 1 : 1, size * percent / 100);
    kube.apps().deployments().inNamespace(NAMESPACE).withName(deployment).scale(replicas);
    return replicas;
  }

  /** The release NodeClass {@code name} is on now. */
  String release(String nodeClass) {
    var terms = (List<?>) ((Map<?, ?>) kube.genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").withName(nodeClass)
        .get().getAdditionalProperties().get("spec")).get("amiSelectorTerms");
    return String.valueOf(((Map<?, ?>) terms.getFirst()).get("alias"));
  }

  /** The release after {@code current} (the two alternate). */
  static String other(String current) {
    return RELEASES.get((RELEASES.indexOf(current) + 1) % RELEASES.size());
  }

  /** Moves NodeClass {@code name} to the other release: every node of its NodePool drifts. */
  @SuppressWarnings("unchecked")
  String drift(String nodeClass) {
    String next = other(release(nodeClass));
    kube.genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").withName(nodeClass)
        .edit(c -> {
          ((Map<String, Object>) c.getAdditionalProperties().get("spec")).put("amiSelectorTerms", List.of(Map.of("alias", next)));
          return c;
        });
    return next;
  }

  /** Sets the rolled NodePool's template label {@code chaos-edit} to {@code value}: its nodes drift. */
  @SuppressWarnings("unchecked")
  void editRolledPool(String value) {
    kube.genericKubernetesResources("karpenter.sh/v1", "NodePool").withName(ROLLED).edit(pool -> {
      var template = (Map<String, Object>) ((Map<String, Object>) pool.getAdditionalProperties().get("spec")).get("template");
      var metadata = (Map<String, Object>) template.computeIfAbsent("metadata", k -> new LinkedHashMap<>());
      var labels = (Map<String, Object>) metadata.computeIfAbsent("labels", k -> new LinkedHashMap<>());
      labels.put("chaos-edit", value);
      return pool;
    });
  }

  /** The fleet's pods, for diagnostics. */
  List<Pod> pods() {
    return kube.pods().inNamespace(NAMESPACE).list().getItems();
  }
}
