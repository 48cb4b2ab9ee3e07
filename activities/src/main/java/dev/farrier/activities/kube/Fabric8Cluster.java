package dev.farrier.activities.kube;

import dev.farrier.activities.crd.AmiSelectorTerm;
import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodeOverlay;
import dev.farrier.activities.crd.NodeOverlayStatus;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolStatus;
import dev.farrier.model.Taint;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link Cluster} on the fabric8 client: one object that is every port, each delegated to its own implementation
 * ({@link Fabric8ClusterReader}, {@link Fabric8StatusWriter}, {@link Fabric8NodeClaimStore}, {@link Fabric8NodeWriter},
 * {@link PodEvictions}, {@link EventRecorder}, {@link Fabric8RolloutWriter}, {@link Fabric8WorkloadSurges}). It exists because activities take
 * intersections of ports ({@code <C extends ClusterReader & NodeClaimStore & ...>}), so the worker's composition root
 * needs one object that implements them all.
 *
 * <p>Thread-safe; the client is owned (and closed) by the caller, the bounded client the drain's calls use (see
 * {@link PodEvictions}) by this object. Lists come from a {@link ClusterCache} when given one (the worker's planners),
 * else from the API server on every call; gets and the pods a drain reads always go to the API server. A
 * read-modify-write takes the cache's copy as its first base ({@link OptimisticPatcher}: a stale copy costs a 409 and a
 * live read), and an Event the UID of its object.
 */
public final class Fabric8Cluster implements Cluster, AutoCloseable {
  private final ClusterReader reader;
  private final StatusWriter statuses;
  private final NodeClaimStore claims;
  private final NodeWriter nodes;
  private final PodEvictions evictions;
  private final EventSink events;
  private final RolloutWriter rollouts;
  private final Fabric8WorkloadSurges surges;

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
    ClusterLists lists = cache == null ? new LiveLists(client) : cache;
    CachedObjects cached = cache == null ? CachedObjects.NONE : cache;
    OptimisticPatcher patcher = new OptimisticPatcher(client, cached);
    this.reader = new Fabric8ClusterReader(client, lists);
    this.statuses = new Fabric8StatusWriter(patcher);
    this.claims = new Fabric8NodeClaimStore(client, lists, patcher);
    this.nodes = new Fabric8NodeWriter(client, patcher);
    this.evictions = new PodEvictions(client);
    this.events = new EventRecorder(client, cached, clock, instance);
    this.rollouts = new Fabric8RolloutWriter(patcher);
    this.surges = new Fabric8WorkloadSurges(evictions.bounded(), clock, instance);
  }

  // ClusterReader.

  @Override
  public Optional<NodePool> getNodePool(String name) {
    return reader.getNodePool(name);
  }

  @Override
  public List<NodePool> listNodePools() {
    return reader.listNodePools();
  }

  @Override
  public Optional<EC2NodeClass> getNodeClass(String name) {
    return reader.getNodeClass(name);
  }

  @Override
  public List<EC2NodeClass> listNodeClasses() {
    return reader.listNodeClasses();
  }

  @Override
  public List<NodeOverlay> listNodeOverlays() {
    return reader.listNodeOverlays();
  }

  @Override
  public Optional<Node> getNode(String name) {
    return reader.getNode(name);
  }

  @Override
  public List<Node> listNodes() {
    return reader.listNodes();
  }

  @Override
  public Optional<Node> findNodeByProviderId(String providerId) {
    return reader.findNodeByProviderId(providerId);
  }

  @Override
  public Optional<Node> findNode(String name) {
    return reader.findNode(name);
  }

  @Override
  public Optional<Pod> getPod(String namespace, String name) {
    return reader.getPod(namespace, name);
  }

  @Override
  public List<Pod> listBoundPods() {
    return reader.listBoundPods();
  }

  @Override
  public List<Pod> listUnboundPods() {
    return reader.listUnboundPods();
  }

  @Override
  public List<Pod> listPendingPods() {
    return reader.listPendingPods();
  }

  @Override
  public List<PodDisruptionBudget> listPodDisruptionBudgets() {
    return reader.listPodDisruptionBudgets();
  }

  @Override
  public List<DaemonSet> listDaemonSets() {
    return reader.listDaemonSets();
  }

  @Override
  public List<PersistentVolumeClaim> listPersistentVolumeClaims() {
    return reader.listPersistentVolumeClaims();
  }

  @Override
  public List<PersistentVolume> listPersistentVolumes() {
    return reader.listPersistentVolumes();
  }

  @Override
  public List<StorageClass> listStorageClasses() {
    return reader.listStorageClasses();
  }

  @Override
  public List<CSINode> listCSINodes() {
    return reader.listCSINodes();
  }

  @Override
  public List<Namespace> listNamespaces() {
    return reader.listNamespaces();
  }

  // StatusWriter.

  @Override
  public EC2NodeClass patchNodeClassStatus(String name, EC2NodeClassStatus patch) {
    return statuses.patchNodeClassStatus(name, patch);
  }

  @Override
  public NodePool patchNodePoolStatus(String name, NodePoolStatus patch) {
    return statuses.patchNodePoolStatus(name, patch);
  }

  @Override
  public NodeOverlay patchNodeOverlayStatus(String name, NodeOverlayStatus patch) {
    return statuses.patchNodeOverlayStatus(name, patch);
  }

  // NodeClaimStore.

  @Override
  public Optional<NodeClaim> getNodeClaim(String name) {
    return claims.getNodeClaim(name);
  }

  @Override
  public List<NodeClaim> listNodeClaims() {
    return claims.listNodeClaims();
  }

  @Override
  public List<NodeClaim> listNodeClaimsOfNodePool(String nodePool) {
    return claims.listNodeClaimsOfNodePool(nodePool);
  }

  @Override
  public NodeClaim createNodeClaimIfAbsent(NodeClaim claim) {
    return claims.createNodeClaimIfAbsent(claim);
  }

  @Override
  public NodeClaim patchNodeClaimStatus(String name, NodeClaimStatus patch) {
    return claims.patchNodeClaimStatus(name, patch);
  }

  @Override
  public NodeClaim patchNodeClaimConditions(String name, List<Condition> set, Collection<String> removed) {
    return claims.patchNodeClaimConditions(name, set, removed);
  }

  @Override
  public boolean patchNodeClaimMetadata(String name, Map<String, String> labels, Map<String, String> annotations) {
    return claims.patchNodeClaimMetadata(name, labels, annotations);
  }

  @Override
  public boolean addNodeClaimFinalizer(String name, String finalizer) {
    return claims.addNodeClaimFinalizer(name, finalizer);
  }

  @Override
  public boolean removeNodeClaimFinalizer(String name, String finalizer) {
    return claims.removeNodeClaimFinalizer(name, finalizer);
  }

  @Override
  public void deleteNodeClaim(String name) {
    claims.deleteNodeClaim(name);
  }

  // NodeWriter.

  @Override
  public boolean patchNodeMetadata(String name, Map<String, String> labels, Map<String, String> annotations) {
    return nodes.patchNodeMetadata(name, labels, annotations);
  }

  @Override
  public boolean registerNode(String name, Map<String, String> labels, Map<String, String> annotations, String finalizer,
      Taint removedTaint) {
    return nodes.registerNode(name, labels, annotations, finalizer, removedTaint);
  }

  @Override
  public boolean addNodeTaint(String name, Taint taint) {
    return nodes.addNodeTaint(name, taint);
  }

  @Override
  public boolean removeNodeTaint(String name, Taint taint) {
    return nodes.removeNodeTaint(name, taint);
  }

  @Override
  public boolean cordonNode(String name) {
    return nodes.cordonNode(name);
  }

  @Override
  public boolean uncordonNode(String name) {
    return nodes.uncordonNode(name);
  }

  @Override
  public boolean addNodeFinalizer(String name, String finalizer) {
    return nodes.addNodeFinalizer(name, finalizer);
  }

  @Override
  public boolean removeNodeFinalizer(String name, String finalizer) {
    return nodes.removeNodeFinalizer(name, finalizer);
  }

  @Override
  public void deleteNode(String name) {
    nodes.deleteNode(name);
  }

  // PodEvictor.

  @Override
  public List<Pod> listPodsOnNode(String nodeName) {
    return evictions.listPodsOnNode(nodeName);
  }

  @Override
  public EvictionOutcome evictPod(Pod pod) throws PdbBlockedException {
    return evictions.evictPod(pod);
  }

  @Override
  public boolean deletePod(Pod pod, Long gracePeriodSeconds) {
    return evictions.deletePod(pod, gracePeriodSeconds);
  }

  // EventSink.

  @Override
  public void recordEvent(ClusterEvent event) {
    events.recordEvent(event);
  }

  @Override
  public boolean recordPodEvent(PodEvent event, Duration window) {
    return events.recordPodEvent(event, window);
  }

  @Override
  public void recordObjectEvent(io.fabric8.kubernetes.api.model.HasMetadata involved, String type, String reason, String message) {
    events.recordObjectEvent(involved, type, reason, message);
  }

  // RolloutWriter.

  @Override
  public String compareAndSetNodePoolAnnotation(String name, String key, String expected, String value) {
    return rollouts.compareAndSetNodePoolAnnotation(name, key, expected, value);
  }

  @Override
  public void setNodeClassImages(String name, List<AmiSelectorTerm> terms, String amiFamily, Map<String, String> annotations) {
    rollouts.setNodeClassImages(name, terms, amiFamily, annotations);
  }

  @Override
  public void patchNodeClassAnnotations(String name, Map<String, String> annotations) {
    rollouts.patchNodeClassAnnotations(name, annotations);
  }

  // WorkloadSurges.

  @Override
  public Optional<Pod> readPod(String namespace, String name) {
    return surges.readPod(namespace, name);
  }

  @Override
  public Optional<ReplicaSet> readReplicaSet(String namespace, String name) {
    return surges.readReplicaSet(namespace, name);
  }

  @Override
  public Optional<Deployment> readDeployment(String namespace, String name) {
    return surges.readDeployment(namespace, name);
  }

  @Override
  public Optional<PersistentVolumeClaim> readClaim(String namespace, String name) {
    return surges.readClaim(namespace, name);
  }

  @Override
  public Optional<PersistentVolume> readVolume(String name) {
    return surges.readVolume(name);
  }

  /**
   * From the NodePool list (the informer cache in the worker), not a GET: a drain pass reads its NodePool's
   * {@code farrier.dev/surge} every pass, and the cache already holds every NodePool.
   */
  @Override
  public Optional<NodePool> readNodePool(String name) {
    return reader.listNodePools().stream().filter(pool -> name.equals(pool.getMetadata().getName())).findFirst();
  }

  @Override
  public Optional<Node> readNode(String name) {
    return surges.readNode(name);
  }

  @Override
  public boolean restartDeployment(Deployment read, Map<String, String> annotations, Map<String, String> templateAnnotations) {
    return surges.restartDeployment(read, annotations, templateAnnotations);
  }

  @Override
  public void recordEvent(io.fabric8.kubernetes.api.model.HasMetadata involved, String type, String reason, String message,
      Runnable beat) {
    surges.recordEvent(involved, type, reason, message, beat);
  }

  @Override
  public void close() {
    evictions.close();
  }
}
