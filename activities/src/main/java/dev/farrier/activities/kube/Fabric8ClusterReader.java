package dev.farrier.activities.kube;

import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodeOverlay;
import dev.farrier.activities.crd.NodePool;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Optional;

/**
 * {@link ClusterReader} on the fabric8 client. Lists come from {@link ClusterLists} (the worker's informer cache, or
 * a LIST per call); gets always go to the API server. A missing object reads as {@link Optional#empty()}; any other
 * API failure surfaces as the client's runtime exception (retryable).
 */
final class Fabric8ClusterReader implements ClusterReader {
  private final KubernetesClient client;
  private final ClusterLists lists;

  Fabric8ClusterReader(KubernetesClient client, ClusterLists lists) {
    this.client = client;
    this.lists = lists;
  }

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
  public List<NodeOverlay> listNodeOverlays() {
    return lists.nodeOverlays();
  }

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
  public Optional<Node> findNode(String name) {
    return lists.node(name);
  }

  @Override
  public Optional<Pod> getPod(String namespace, String name) {
    return Optional.ofNullable(client.pods().inNamespace(namespace).withName(name).get());
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
        .filter(Fabric8ClusterReader::isUnschedulable)
        .filter(p -> !Preemption.nominated(p))
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
  public List<CSINode> listCSINodes() {
    return lists.csiNodes();
  }

  @Override
  public List<Namespace> listNamespaces() {
    return lists.namespaces();
  }

  private static boolean isUnschedulable(Pod pod) {
    return pod.getStatus() != null && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream().anyMatch(c -> "PodScheduled".equals(c.getType())
            && "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason()));
  }
}
