package dev.farrier.sandbox;

import dev.farrier.activities.views.ProviderIds;
import dev.farrier.workflows.WorkflowIds;
import dev.farrier.model.WellKnown;
import dev.farrier.model.ReplacementResult;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.temporal.client.WorkflowClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/**
 * The drift-upgrade blueprint as code: the sandbox plays it, and the end-to-end tests play it and assert on what
 * it recorded. Nodes come pinned to one Kubernetes version's AMIs; switching the EC2NodeClass to the next
 * version's AMIs makes them drift, and Farrier replaces them.
 */
public final class DriftScenario {
  public static final String NODE_CLASS = "latest-current-ami-template";
  public static final String NODE_POOL = "latest-current-ami";
  public static final String NAMESPACE = "default";
  public static final String APP = "inflate";
  public static final int REPLICAS = 3;
  public static final int MIN_AVAILABLE = 2;

  /** What the first half found running: the node that will drift. */
  public record Provisioned(String nodeClaim, String node, String instanceId, String imageId, Instant at) {}

  /** What the upgrade produced. */
  public record Upgraded(String replacementWorkflowId, ReplacementResult result, String newNode, String newNodeClaim, String newImageId, Instant switchedAt, Instant doneAt) {}

  private final KubernetesClient kube;
  private final WorkflowClient temporal;
  private final String cluster;
  /** (kubernetes minor version, arch) -> the EKS-optimized AL2 AMI id for it. */
  private final BiFunction<String, String, String> amiLookup;
  private final Duration timeout;

  public DriftScenario(KubernetesClient kube, WorkflowClient temporal, String cluster,
      BiFunction<String, String, String> amiLookup, Duration timeout) {
    this.kube = kube;
    this.temporal = temporal;
    this.cluster = cluster;
    this.amiLookup = amiLookup;
    this.timeout = timeout;
  }

  /** Applies the blueprint pinned to {@code fromVersion} and waits until the pods run on a Farrier node. */
  public Provisioned provision(String fromVersion) {
    return provision(fromVersion, manifest -> manifest);
  }

  /** As {@link #provision(String)}, with the blueprint's manifests edited first (e.g. a spot-only NodePool). */
  public Provisioned provision(String fromVersion, java.util.function.UnaryOperator<String> edit) {
    var manifest = blueprintFor(edit, fromVersion);
    kube.load(new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8))).serverSideApply();
    var node = Await.until(REPLICAS + " " + APP + " pods Ready on one Farrier node", timeout, () -> {
      var nodes = readyAppPods().stream().map(p -> p.getSpec().getNodeName()).distinct().toList();
      return readyAppPods().size() == REPLICAS && nodes.size() == 1 && farrierNode(nodes.getFirst()) ? nodes.getFirst() : null;
    }, this::diagnostics);
    var claim = claimOfNode(node);
    return new Provisioned(claim.getMetadata().getName(), node, instanceId(claim), imageId(claim), Instant.now());
  }

  /** The blueprint's manifests, edited, with its placeholders filled for this cluster and {@code fromVersion}'s AMIs. */
  String blueprintFor(java.util.function.UnaryOperator<String> edit, String fromVersion) {
    return edit.apply(blueprint())
        .replace("<<CLUSTER_NAME>>", cluster)
        .replace("<<KARPENTER_NODE_IAM_ROLE_NAME>>", "KarpenterNodeRole-" + cluster)
        .replace("<<AMD64PREVAMI>>", amiLookup.apply(fromVersion, "amd64"))
        .replace("<<ARM64PREVAMI>>", amiLookup.apply(fromVersion, "arm64"));
  }

  /** Switches the EC2NodeClass to {@code toVersion}'s AMIs and waits until the drifted node has been replaced. */
  public Upgraded upgrade(Provisioned old, String toVersion) {
    return awaitUpgrade(old, switchImages(toVersion));
  }

  /** Switches the EC2NodeClass's AMI ids to {@code toVersion}'s, as the blueprint's sed + kubectl apply does. */
  public Instant switchImages(String toVersion) {
    var terms = List.of(Map.of("id", amiLookup.apply(toVersion, "amd64")), Map.of("id", amiLookup.apply(toVersion, "arm64")));
    var switchedAt = Instant.now();
    kube.genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").withName(NODE_CLASS)
        .patch(PatchContext.of(PatchType.JSON_MERGE), json(Map.of("spec", Map.of("amiSelectorTerms", terms))));
    return switchedAt;
  }

  /** Selects the EC2NodeClass's subnets by these ids (replacing its selector terms), as a user moving nodes out of a subnet does. */
  public Instant selectSubnets(List<String> subnetIds) {
    return selectNetwork("subnetSelectorTerms", subnetIds.stream().map(id -> Map.of("id", id)).toList());
  }

  /** Selects the EC2NodeClass's security groups by this name alone (replacing its selector terms). */
  public Instant selectSecurityGroup(String name) {
    return selectNetwork("securityGroupSelectorTerms", List.of(Map.of("name", name)));
  }

  private Instant selectNetwork(String field, List<Map<String, String>> terms) {
    var switchedAt = Instant.now();
    kube.genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").withName(NODE_CLASS)
        .patch(PatchContext.of(PatchType.JSON_MERGE), json(Map.of("spec", Map.of(field, terms))));
    return switchedAt;
  }

  /** The EC2NodeClass's subnets as its status resolved them, by id. */
  public List<String> resolvedSubnets() {
    var nodeClass = kube.genericKubernetesResources("karpenter.k8s.aws/v1", "EC2NodeClass").withName(NODE_CLASS).get();
    return status(nodeClass).get("subnets") instanceof List<?> subnets
        ? subnets.stream().map(s -> Objects.toString(((Map<?, ?>) s).get("id"), null)).toList() : List.of();
  }

  /** Waits until the replacement of {@code old} has started (its workflow exists). */
  public String awaitReplacementStarted(Provisioned old) {
    var workflowId = WorkflowIds.disruption(old.nodeClaim());
    Await.until("replacement workflow " + workflowId + " to start", timeout, () -> {
      try {
        temporal.newUntypedWorkflowStub(workflowId).describe();
        return true;
      } catch (RuntimeException notYet) {
        return false;
      }
    }, this::diagnostics);
    return workflowId;
  }

  /** The result of the replacement workflow {@code workflowId}, once it finished; fails with the cluster's state after the timeout. */
  public ReplacementResult awaitResult(String workflowId) {
    try {
      return temporal.newUntypedWorkflowStub(workflowId).getResult(timeout.toSeconds(), TimeUnit.SECONDS, ReplacementResult.class);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException(workflowId + " did not finish within " + timeout + "\n" + diagnostics(), e);
    }
  }

  /** Waits until the replacement workflow of {@code old} finished and the cluster shows its result. */
  public Upgraded awaitUpgrade(Provisioned old, Instant switchedAt) {
    var workflowId = awaitReplacementStarted(old);
    ReplacementResult result = awaitResult(workflowId);
    var newNode = Await.until(REPLICAS + " " + APP + " pods Ready on the replacement node", timeout, () -> {
      var nodes = readyAppPods().stream().map(p -> p.getSpec().getNodeName()).distinct().toList();
      return readyAppPods().size() == REPLICAS && nodes.size() == 1 && !nodes.getFirst().equals(old.node()) ? nodes.getFirst() : null;
    }, this::diagnostics);
    Await.until("old node " + old.node() + " and claim " + old.nodeClaim() + " to be deleted", timeout,
        () -> kube.nodes().withName(old.node()).get() == null && nodeClaim(old.nodeClaim()) == null, this::diagnostics);
    var claim = claimOfNode(newNode);
    return new Upgraded(workflowId, result, newNode, claim.getMetadata().getName(), imageId(claim), switchedAt, Instant.now());
  }

  public List<Pod> readyAppPods() {
    return kube.pods().inNamespace(NAMESPACE).withLabel("app", APP).list().getItems().stream()
        .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null && p.getStatus().getConditions() != null
            && p.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
        .toList();
  }

  boolean farrierNode(String name) {
    Node node = kube.nodes().withName(name).get();
    return node != null && node.getMetadata().getLabels().containsKey(WellKnown.NODEPOOL_LABEL);
  }

  GenericKubernetesResource nodeClaim(String name) {
    return kube.genericKubernetesResources("karpenter.sh/v1", "NodeClaim").withName(name).get();
  }

  public List<GenericKubernetesResource> nodeClaims() {
    return kube.genericKubernetesResources("karpenter.sh/v1", "NodeClaim").list().getItems();
  }

  GenericKubernetesResource claimOfNode(String node) {
    return Await.until("the NodeClaim of node " + node, timeout, () -> nodeClaims().stream()
        .filter(c -> node.equals(status(c).get("nodeName"))).findFirst().orElse(null), this::diagnostics);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> status(GenericKubernetesResource r) {
    Object status = r.getAdditionalProperties().get("status");
    return status instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  static String imageId(GenericKubernetesResource claim) {
    return Objects.toString(status(claim).get("imageID"), null);
  }

  static String instanceId(GenericKubernetesResource claim) {
    return ProviderIds.instanceId(Objects.toString(status(claim).get("providerID"), null));
  }

  /** Nodes, claims and app pods, for a timeout's message. */
  public String diagnostics() {
    try {
      var nodes = kube.nodes().list().getItems().stream().map(n -> "  node " + n.getMetadata().getName()
          + " unschedulable=" + n.getSpec().getUnschedulable() + " taints=" + n.getSpec().getTaints().stream().map(t -> t.getKey()).toList()
          + " labels.nodepool=" + n.getMetadata().getLabels().get(WellKnown.NODEPOOL_LABEL)).collect(Collectors.joining("\n"));
      var claims = nodeClaims().stream().map(c -> "  nodeclaim " + c.getMetadata().getName() + " status=" + status(c))
          .collect(Collectors.joining("\n"));
      var pods = kube.pods().inNamespace(NAMESPACE).withLabel("app", APP).list().getItems().stream()
          .map(p -> "  pod " + p.getMetadata().getName() + " node=" + p.getSpec().getNodeName() + " phase=" + p.getStatus().getPhase())
          .collect(Collectors.joining("\n"));
      return String.join("\n", nodes, claims, pods);
    } catch (RuntimeException e) {
      return "(diagnostics unavailable: " + e + ")";
    }
  }

  private static String blueprint() {
    try (var in = DriftScenario.class.getResourceAsStream("/sandbox/drift-blueprint.yaml")) {
      return new String(Objects.requireNonNull(in, "sandbox/drift-blueprint.yaml missing").readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String json(Object value) {
    return io.fabric8.kubernetes.client.utils.Serialization.asJson(value);
  }
}
