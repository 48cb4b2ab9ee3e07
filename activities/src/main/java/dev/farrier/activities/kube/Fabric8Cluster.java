package dev.farrier.activities.kube;

import dev.farrier.activities.crd.AmiSelectorTerm;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolStatus;
import dev.farrier.model.Taint;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@link Cluster} on the fabric8 client. Thread-safe; the client is owned (and closed) by the caller, the bounded
 * client the drain's calls use (see {@link PodEvictions}) by this object. Lists come from a {@link ClusterCache} when
 * given one (the worker's planners), else from the API server on every call; gets, the pods a drain reads and every
 * read-modify-write always go to the API server.
 */
public final class Fabric8Cluster implements Cluster, AutoCloseable {
  private final KubernetesClient client;
  private final ClusterLists lists;
  private final OptimisticPatcher patcher;
  private final PodEvictions evictions;
  private final EventRecorder events;

  /** Lists from the API server on every call. */
  public Fabric8Cluster(KubernetesClient client) {
    this(client, null);
  }

  /** Lists from {@code cache} (owned by the caller), or from the API server on every call when it is null. */
  public Fabric8Cluster(KubernetesClient client, ClusterCache cache) {
    this(client, cache, Clock.systemUTC(), Objects.requireNonNullElse(System.getenv("HOSTNAME"), EventRecorder.COMPONENT));
  }

  /** @param instance the reportingInstance of Events (the pod's name in-cluster) */
  public Fabric8Cluster(KubernetesClient client, ClusterCache cache, Clock clock, String instance) {
    this.client = client;
    this.lists = cache == null ? new LiveLists(client) : cache;
    this.patcher = new OptimisticPatcher(client.getKubernetesSerialization());
    this.evictions = new PodEvictions(client);
    this.events = new EventRecorder(client, clock, instance);
  }

  // NodePools and EC2NodeClasses.

  @Override
  public Optional<NodePool> getNodePool(String name) {
    return Optional.ofNullable(client.resources(NodePool.class).withName(name).get());
  }

  @Override
  public List<NodePool> listNodePools() {
    return lists.nodePools();
  }

  @Override
  public Optional<EC2NodeClass> getNodeClass(String name) {
    return Optional.ofNullable(client.resources(EC2NodeClass.class).withName(name).get());
  }

  @Override
  public List<EC2NodeClass> listNodeClasses() {
    return lists.nodeClasses();
  }

  @Override
  public EC2NodeClass patchNodeClassStatus(String name, EC2NodeClassStatus patch) {
    var outcome = patcher.apply(client.resources(EC2NodeClass.class).withName(name), true, current -> {
      EC2NodeClassStatus stored = current.getStatus();
      List<Condition> storedConditions = stored == null ? null : stored.conditions();
      EC2NodeClassStatus target = new EC2NodeClassStatus(
          patch.amis() != null ? patch.amis() : stored == null ? null : stored.amis(),
          patch.subnets() != null ? patch.subnets() : stored == null ? null : stored.subnets(),
          patch.securityGroups() != null ? patch.securityGroups() : stored == null ? null : stored.securityGroups(),
          patch.instanceProfile() != null ? patch.instanceProfile() : stored == null ? null : stored.instanceProfile(),
          mergeConditions(storedConditions, patch.conditions()));
      return statusPatch(stored, target);
    });
    return require(outcome, EC2NodeClass.KIND, name);
  }

  // NodeClaims.

  @Override
  public Optional<NodeClaim> getNodeClaim(String name) {
    return Optional.ofNullable(nodeClaim(name).get());
  }

  @Override
  public NodePool patchNodePoolStatus(String name, NodePoolStatus patch) {
    var outcome = patcher.apply(client.resources(NodePool.class).withName(name), true, current -> {
      NodePoolStatus stored = current.getStatus();
      NodePoolStatus target = new NodePoolStatus(
          patch.resources() != null ? patch.resources() : stored == null ? null : stored.resources(),
          patch.nodes() != null ? patch.nodes() : stored == null ? null : stored.nodes(),
          mergeConditions(stored == null ? null : stored.conditions(), patch.conditions()));
      return statusPatch(stored, target);
    });
    return require(outcome, NodePool.KIND, name);
  }

  @Override
  public List<NodeClaim> listNodeClaims() {
    return lists.nodeClaims();
  }

  @Override
  public List<NodeClaim> listNodeClaimsOfNodePool(String nodePool) {
    return lists.nodeClaimsOfNodePool(nodePool);
  }

  @Override
  public NodeClaim createNodeClaimIfAbsent(NodeClaim claim) {
    String name = claim.getMetadata().getName();
    try {
      return client.resources(NodeClaim.class).resource(claim).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      // Already exists. If it vanished again in between, the next attempt of the activity creates it.
      return getNodeClaim(name).orElseThrow(() -> e);
    }
  }

  @Override
  public NodeClaim patchNodeClaimStatus(String name, NodeClaimStatus patch) {
    return patchNodeClaimStatus(name, patch, List.of());
  }

  @Override
  public NodeClaim patchNodeClaimConditions(String name, List<Condition> set, Collection<String> removed) {
    return patchNodeClaimStatus(name, new NodeClaimStatus(null, null, null, null, null, set, null), removed);
  }

  private NodeClaim patchNodeClaimStatus(String name, NodeClaimStatus patch, Collection<String> removedConditions) {
    var outcome = patcher.apply(nodeClaim(name), true, current -> {
      NodeClaimStatus stored = current.getStatus();
      NodeClaimStatus target = new NodeClaimStatus(
          patch.providerID() != null ? patch.providerID() : stored == null ? null : stored.providerID(),
          patch.imageID() != null ? patch.imageID() : stored == null ? null : stored.imageID(),
          patch.nodeName() != null ? patch.nodeName() : stored == null ? null : stored.nodeName(),
          patch.capacity() != null ? patch.capacity() : stored == null ? null : stored.capacity(),
          patch.allocatable() != null ? patch.allocatable() : stored == null ? null : stored.allocatable(),
          mergeConditions(stored == null ? null : stored.conditions(), patch.conditions(), removedConditions),
          patch.lastPodEventTime() != null ? patch.lastPodEventTime() : stored == null ? null : stored.lastPodEventTime());
      return statusPatch(stored, target);
    });
    return require(outcome, NodeClaim.KIND, name);
  }

  @Override
  public boolean addNodeClaimFinalizer(String name, String finalizer) {
    var outcome = patcher.apply(nodeClaim(name), false, withFinalizer(finalizer, true));
    require(outcome, NodeClaim.KIND, name);
    return outcome.changed();
  }

  @Override
  public boolean removeNodeClaimFinalizer(String name, String finalizer) {
    return patcher.apply(nodeClaim(name), false, withFinalizer(finalizer, false)).changed();
  }

  @Override
  public void deleteNodeClaim(String name) {
    nodeClaim(name).delete();
  }

  // Nodes.

  @Override
  public Optional<Node> getNode(String name) {
    return Optional.ofNullable(client.nodes().withName(name).get());
  }

  @Override
  public List<Node> listNodes() {
    return lists.nodes();
  }

  @Override
  public Optional<Node> findNodeByProviderId(String providerId) {
    return lists.nodeByProviderId(providerId);
  }

  @Override
  public boolean patchNodeClaimMetadata(String name, Map<String, String> labels, Map<String, String> annotations) {
    var outcome = patcher.apply(nodeClaim(name), false, claim -> {
      Map<String, Object> metadata = new LinkedHashMap<>();
      putIfChanges(metadata, "labels", claim.getMetadata().getLabels(), labels);
      putIfChanges(metadata, "annotations", claim.getMetadata().getAnnotations(), annotations);
      return metadata.isEmpty() ? null : Map.of("metadata", metadata);
    });
    require(outcome, NodeClaim.KIND, name);
    return outcome.changed();
  }

  @Override
  public boolean patchNodeMetadata(String name, Map<String, String> labels, Map<String, String> annotations) {
    var outcome = patcher.apply(client.nodes().withName(name), false, node -> {
      Map<String, Object> metadata = new LinkedHashMap<>();
      putIfChanges(metadata, "labels", node.getMetadata().getLabels(), labels);
      putIfChanges(metadata, "annotations", node.getMetadata().getAnnotations(), annotations);
      return metadata.isEmpty() ? null : Map.of("metadata", metadata);
    });
    require(outcome, "Node", name);
    return outcome.changed();
  }

  @Override
  public String compareAndSetNodePoolAnnotation(String name, String key, String expected, String value) {
    String[] holder = new String[1];
    var outcome = patcher.apply(client.resources(NodePool.class).withName(name), false, pool -> {
      String current = pool.getMetadata().getAnnotations() == null ? null : pool.getMetadata().getAnnotations().get(key);
      holder[0] = current;
      if (java.util.Objects.equals(current, value) || !java.util.Objects.equals(current, expected)) {
        return null;
      }
      Map<String, String> change = new HashMap<>();
      change.put(key, value);
      holder[0] = value;
      return Map.of("metadata", Map.of("annotations", change));
    });
    require(outcome, NodePool.KIND, name);
    return holder[0];
  }

  @Override
  public void setNodeClassImages(String name, List<AmiSelectorTerm> terms, String amiFamily, Map<String, String> annotations) {
    var outcome = patcher.apply(client.resources(EC2NodeClass.class).withName(name), false, nodeClass -> {
      Map<String, Object> metadata = new LinkedHashMap<>();
      putIfChanges(metadata, "annotations", nodeClass.getMetadata().getAnnotations(), annotations);
      var spec = nodeClass.getSpec();
      boolean same = spec != null && terms.equals(spec.amiSelectorTermsOrEmpty()) && java.util.Objects.equals(amiFamily, spec.amiFamily());
      if (same && metadata.isEmpty()) {
        return null;
      }
      Map<String, Object> body = new LinkedHashMap<>();
      if (!metadata.isEmpty()) {
        body.put("metadata", metadata);
      }
      Map<String, Object> specPatch = new HashMap<>();
      specPatch.put("amiSelectorTerms", terms);
      specPatch.put("amiFamily", amiFamily);
      body.put("spec", specPatch);
      return body;
    });
    require(outcome, EC2NodeClass.KIND, name);
  }

  @Override
  public void patchNodeClassAnnotations(String name, Map<String, String> annotations) {
    var outcome = patcher.apply(client.resources(EC2NodeClass.class).withName(name), false, nodeClass -> {
      Map<String, Object> metadata = new LinkedHashMap<>();
      putIfChanges(metadata, "annotations", nodeClass.getMetadata().getAnnotations(), annotations);
      return metadata.isEmpty() ? null : Map.of("metadata", metadata);
    });
    require(outcome, EC2NodeClass.KIND, name);
  }

  @Override
  public boolean addNodeTaint(String name, Taint taint) {
    var outcome = patcher.apply(client.nodes().withName(name), false, node -> {
      List<io.fabric8.kubernetes.api.model.Taint> taints = taintsOf(node);
      boolean present = taints.stream().anyMatch(t -> sameTaint(t, taint) && valueOf(t).equals(valueOf(taint)));
      if (present) {
        return null;
      }
      List<io.fabric8.kubernetes.api.model.Taint> updated = new ArrayList<>(taints.stream().filter(t -> !sameTaint(t, taint)).toList());
      updated.add(new TaintBuilder().withKey(taint.key()).withValue(emptyToNull(taint.value())).withEffect(taint.effect()).build());
      return Map.of("spec", Map.of("taints", updated));
    });
    require(outcome, "Node", name);
    return outcome.changed();
  }

  @Override
  public boolean removeNodeTaint(String name, Taint taint) {
    return patcher.apply(client.nodes().withName(name), false, node -> {
      List<io.fabric8.kubernetes.api.model.Taint> taints = taintsOf(node);
      List<io.fabric8.kubernetes.api.model.Taint> kept = taints.stream().filter(t -> !sameTaint(t, taint)).toList();
      return kept.size() == taints.size() ? null : Map.of("spec", Map.of("taints", kept));
    }).changed();
  }

  @Override
  public boolean cordonNode(String name) {
    var outcome = patcher.apply(client.nodes().withName(name), false,
        node -> isUnschedulable(node) ? null : Map.of("spec", Map.of("unschedulable", true)));
    require(outcome, "Node", name);
    return outcome.changed();
  }

  @Override
  public boolean uncordonNode(String name) {
    return patcher.apply(client.nodes().withName(name), false, node -> {
      if (!isUnschedulable(node)) {
        return null;
      }
      Map<String, Object> spec = new HashMap<>();
      spec.put("unschedulable", null); // merge patch null: remove the field, as kubectl uncordon does
      return Map.of("spec", spec);
    }).changed();
  }

  @Override
  public boolean addNodeFinalizer(String name, String finalizer) {
    var outcome = patcher.apply(client.nodes().withName(name), false, withFinalizer(finalizer, true));
    require(outcome, "Node", name);
    return outcome.changed();
  }

  @Override
  public boolean removeNodeFinalizer(String name, String finalizer) {
    return patcher.apply(client.nodes().withName(name), false, withFinalizer(finalizer, false)).changed();
  }

  @Override
  public void deleteNode(String name) {
    client.nodes().withName(name).delete();
  }

  // Pods.

  @Override
  public Optional<Pod> getPod(String namespace, String name) {
    return Optional.ofNullable(client.pods().inNamespace(namespace).withName(name).get());
  }

  @Override
  public List<Pod> listPodsOnNode(String nodeName) {
    return evictions.podsOn(nodeName);
  }

  @Override
  public List<Pod> listBoundPods() {
    return lists.boundPods();
  }

  @Override
  public List<Pod> listUnboundPods() {
    return lists.unboundPods();
  }

  @Override
  public List<Pod> listPendingPods() {
    return lists.unboundPods().stream()
        .filter(p -> p.getStatus() != null && "Pending".equals(p.getStatus().getPhase()))
        .filter(Fabric8Cluster::isUnschedulable)
        .toList();
  }

  @Override
  public List<PodDisruptionBudget> listPodDisruptionBudgets() {
    return lists.podDisruptionBudgets();
  }

  @Override
  public List<DaemonSet> listDaemonSets() {
    return lists.daemonSets();
  }

  @Override
  public List<PersistentVolumeClaim> listPersistentVolumeClaims() {
    return lists.persistentVolumeClaims();
  }

  @Override
  public List<PersistentVolume> listPersistentVolumes() {
    return lists.persistentVolumes();
  }

  @Override
  public List<StorageClass> listStorageClasses() {
    return lists.storageClasses();
  }

  @Override
  public List<Namespace> listNamespaces() {
    return lists.namespaces();
  }

  @Override
  public EvictionOutcome evictPod(Pod pod) throws PdbBlockedException {
    return evictions.evict(pod);
  }

  @Override
  public boolean deletePod(Pod pod, Long gracePeriodSeconds) {
    return evictions.delete(pod, gracePeriodSeconds);
  }

  @Override
  public void recordEvent(ClusterEvent event) {
    events.record(event);
  }

  @Override
  public boolean recordPodEvent(PodEvent event, java.time.Duration window) {
    return events.recordPod(event, window);
  }

  // Helpers.

  private Resource<NodeClaim> nodeClaim(String name) {
    return client.resources(NodeClaim.class).withName(name);
  }

  private static <T> T require(OptimisticPatcher.Outcome<T> outcome, String kind, String name) {
    if (!outcome.found()) {
      throw new ObjectNotFoundException(kind, name);
    }
    return outcome.object();
  }

  private static <T extends HasMetadata> Function<T, Map<String, Object>> withFinalizer(String finalizer, boolean present) {
    return object -> {
      List<String> finalizers = object.getMetadata().getFinalizers() == null ? List.of() : object.getMetadata().getFinalizers();
      if (finalizers.contains(finalizer) == present) {
        return null;
      }
      List<String> updated = new ArrayList<>(finalizers);
      if (present) {
        updated.add(finalizer);
      } else {
        updated.removeIf(finalizer::equals);
      }
      return Map.of("metadata", Map.of("finalizers", updated));
    };
  }

  /** Conditions merged by type; null when there is nothing to merge (the stored list stays as it is). */
  private static List<Condition> mergeConditions(List<Condition> stored, List<Condition> updates) {
    if (updates == null || updates.isEmpty()) {
      return stored;
    }
    return Conditions.merge(stored, updates);
  }

  /** Conditions merged by type, without the {@code removed} types; the stored list when nothing is to change. */
  private static List<Condition> mergeConditions(List<Condition> stored, List<Condition> updates, Collection<String> removed) {
    if (removed.isEmpty() || stored == null) {
      return mergeConditions(stored, updates);
    }
    return Conditions.merge(stored, updates == null ? List.of() : updates, removed);
  }

  /** The merge patch that writes {@code target} as the whole status, or null when it equals what is stored. */
  private static Map<String, Object> statusPatch(Object stored, Object target) {
    return Objects.equals(stored, target) ? null : Map.of("status", target);
  }

  /** Adds {@code key: changes} to the metadata patch when a change differs from what is stored. */
  private static void putIfChanges(Map<String, Object> metadata, String key, Map<String, String> stored, Map<String, String> changes) {
    if (changes == null || changes.isEmpty()) {
      return;
    }
    Map<String, String> current = stored == null ? Map.of() : stored;
    boolean differs = changes.entrySet().stream().anyMatch(e -> e.getValue() == null
        ? current.containsKey(e.getKey())
        : !e.getValue().equals(current.get(e.getKey())));
    if (differs) {
      metadata.put(key, new HashMap<>(changes)); // null values stay: merge patch null removes the key
    }
  }

  private static List<io.fabric8.kubernetes.api.model.Taint> taintsOf(Node node) {
    return node.getSpec() == null || node.getSpec().getTaints() == null ? List.of() : node.getSpec().getTaints();
  }

  /** Kubernetes identifies a node taint by key and effect. */
  private static boolean sameTaint(io.fabric8.kubernetes.api.model.Taint t, Taint taint) {
    return Objects.equals(t.getKey(), taint.key()) && Objects.equals(t.getEffect(), taint.effect());
  }

  private static String valueOf(io.fabric8.kubernetes.api.model.Taint t) {
    return t.getValue() == null ? "" : t.getValue();
  }

  private static String valueOf(Taint t) {
    return t.value() == null ? "" : t.value();
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  private static boolean isUnschedulable(Node node) {
    return node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
  }

  private static boolean isUnschedulable(Pod pod) {
    return pod.getStatus() != null && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream().anyMatch(c -> "PodScheduled".equals(c.getType())
            && "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason()));
  }

  @Override
  public void close() {
    evictions.close();
  }
}
