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
import java.util.List;
import java.util.Optional;

/**
 * Every read a planning round or a status pass makes of the cluster (NodePools, EC2NodeClasses, Nodes, pods and what
 * governs them); reads only. The contracts of {@link Cluster} apply.
 */
public interface ClusterReader {
  Optional<NodePool> getNodePool(String name);

  List<NodePool> listNodePools();

  Optional<EC2NodeClass> getNodeClass(String name);

  List<EC2NodeClass> listNodeClasses();

  /** Every NodeOverlay; none while the cluster lacks their CRD. */
  List<NodeOverlay> listNodeOverlays();

  Optional<Node> getNode(String name);

  List<Node> listNodes();

  /** The node whose {@code spec.providerID} equals {@code providerId} (there is no field selector for it: lists). */
  Optional<Node> findNodeByProviderId(String providerId);

  /**
   * The node of this name as the lists see it (in the worker, its informer cache, so a poll costs the API server
   * nothing); {@link #getNode} reads the API server.
   */
  Optional<Node> findNode(String name);

  Optional<Pod> getPod(String namespace, String name);

  /** Every pod bound to some node, in all namespaces: one read for a planning round instead of one per node. */
  List<Pod> listBoundPods();

  /**
   * Pods the scheduler could not place: Pending, no node, PodScheduled=False with reason Unschedulable, and not placed by
   * preemption ({@link Preemption}).
   */
  List<Pod> listPendingPods();

  /** Every pod not bound to a node, in all namespaces: one read for a provisioning batch instead of one per pod. */
  List<Pod> listUnboundPods();

  List<PodDisruptionBudget> listPodDisruptionBudgets();

  List<DaemonSet> listDaemonSets();

  // Storage and namespaces: what the scheduler reads for volume topology and pod affinity namespace selectors.

  List<PersistentVolumeClaim> listPersistentVolumeClaims();

  List<PersistentVolume> listPersistentVolumes();

  List<StorageClass> listStorageClasses();

  /** The CSINodes: how many volumes of each CSI driver a node attaches at most. */
  List<CSINode> listCSINodes();

  List<Namespace> listNamespaces();
}
