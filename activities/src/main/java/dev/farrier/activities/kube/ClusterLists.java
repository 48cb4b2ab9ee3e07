package dev.farrier.activities.kube;

import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodeClaim;
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
 * Where the lists of {@link Fabric8ClusterReader} and {@link Fabric8NodeClaimStore} come from: the API server on every
 * call ({@link LiveLists}) or the worker's informers ({@link ClusterCache}). Gets, and the pods a drain reads, always
 * go to the API server; {@link #node} is for polling a node's state, which the informer keeps up to date. Callers
 * treat the objects returned as read-only: a cache hands out the instances it keeps.
 */
interface ClusterLists {
  List<NodePool> nodePools();

  List<EC2NodeClass> nodeClasses();

  /** Every NodeOverlay; none while the cluster lacks their CRD (a chart upgrade does not install new CRDs). */
  List<NodeOverlay> nodeOverlays();

  List<NodeClaim> nodeClaims();

  List<NodeClaim> nodeClaimsOfNodePool(String nodePool);

  List<Node> nodes();

  Optional<Node> nodeByProviderId(String providerId);

  /** The node of this name, empty when there is none. */
  Optional<Node> node(String name);

  List<Pod> boundPods();

  List<Pod> unboundPods();

  List<PodDisruptionBudget> podDisruptionBudgets();

  List<DaemonSet> daemonSets();

  List<PersistentVolumeClaim> persistentVolumeClaims();

  List<PersistentVolume> persistentVolumes();

  List<StorageClass> storageClasses();

  List<CSINode> csiNodes();

  List<Namespace> namespaces();
}
