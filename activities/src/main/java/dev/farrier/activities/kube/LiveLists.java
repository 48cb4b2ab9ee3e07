package dev.farrier.activities.kube;

import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeOverlay;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.model.WellKnown;
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
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Optional;

/**
 * Every list a LIST call to the API server, as fresh as a read can be. What the garbage collector reads (it must never
 * take a claim created a moment ago for missing) and what tests read without a worker.
 */
final class LiveLists implements ClusterLists {
  private final KubernetesClient client;

  LiveLists(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public List<NodePool> nodePools() {
    return client.resources(NodePool.class).list().getItems();
  }

  @Override
  public List<EC2NodeClass> nodeClasses() {
    return client.resources(EC2NodeClass.class).list().getItems();
  }

  @Override
  public List<NodeOverlay> nodeOverlays() {
    try {
      return client.resources(NodeOverlay.class).list().getItems();
    } catch (KubernetesClientException e) {
      if (e.getCode() == ClusterCache.NOT_FOUND) {
        return List.of();
      }
      throw e;
    }
  }

  @Override
  public List<NodeClaim> nodeClaims() {
    return client.resources(NodeClaim.class).list().getItems();
  }

  @Override
  public List<NodeClaim> nodeClaimsOfNodePool(String nodePool) {
    return client.resources(NodeClaim.class).withLabel(WellKnown.NODEPOOL_LABEL, nodePool).list().getItems();
  }

  @Override
  public List<Node> nodes() {
    return client.nodes().list().getItems();
  }

  /** There is no field selector for {@code spec.providerID}: this lists every Node. */
  @Override
  public Optional<Node> nodeByProviderId(String providerId) {
    return nodes().stream().filter(n -> providerId.equals(ClusterCache.providerId(n))).findFirst();
  }

  @Override
  public Optional<Node> node(String name) {
    return Optional.ofNullable(client.nodes().withName(name).get());
  }

  @Override
  public List<Pod> boundPods() {
    return client.pods().inAnyNamespace().withoutField("spec.nodeName", "").list().getItems();
  }

  @Override
  public List<Pod> unboundPods() {
    return client.pods().inAnyNamespace().withField("spec.nodeName", "").list().getItems();
  }

  @Override
  public List<PodDisruptionBudget> podDisruptionBudgets() {
    return client.policy().v1().podDisruptionBudget().inAnyNamespace().list().getItems();
  }

  @Override
  public List<DaemonSet> daemonSets() {
    return client.apps().daemonSets().inAnyNamespace().list().getItems();
  }

  @Override
  public List<PersistentVolumeClaim> persistentVolumeClaims() {
    return client.persistentVolumeClaims().inAnyNamespace().list().getItems();
  }

  @Override
  public List<PersistentVolume> persistentVolumes() {
    return client.persistentVolumes().list().getItems();
  }

  @Override
  public List<StorageClass> storageClasses() {
    return client.storage().v1().storageClasses().list().getItems();
  }

  @Override
  public List<CSINode> csiNodes() {
    return client.storage().v1().csiNodes().list().getItems();
  }

  @Override
  public List<Namespace> namespaces() {
    return client.namespaces().list().getItems();
  }
}
