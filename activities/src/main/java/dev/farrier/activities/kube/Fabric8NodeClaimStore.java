package dev.farrier.activities.kube;

import static dev.farrier.activities.kube.MergePatches.mergeConditions;
import static dev.farrier.activities.kube.MergePatches.observedAt;
import static dev.farrier.activities.kube.MergePatches.metadataChanges;
import static dev.farrier.activities.kube.MergePatches.require;
import static dev.farrier.activities.kube.MergePatches.statusPatch;
import static dev.farrier.activities.kube.MergePatches.withFinalizer;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.net.HttpURLConnection;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link NodeClaimStore} on the fabric8 client. Lists come from {@link ClusterLists} (the worker's informer cache, or
 * a LIST per call); gets and every write go to the API server. Writes are idempotent: the create is create-if-absent
 * (the name is deterministic), every change is a read-modify-write toward a target state ({@link OptimisticPatcher}:
 * the informer cache's copy or a live read as base, its resourceVersion as precondition, retried from a live read on
 * conflict, nothing sent when a live read says there is nothing to change). Removals and the delete treat a missing
 * claim as done; the status, metadata and add-finalizer writes throw {@link ObjectNotFoundException}.
 */
final class Fabric8NodeClaimStore implements NodeClaimStore {
  private final KubernetesClient client;
  private final ClusterLists lists;
  private final OptimisticPatcher patcher;

  Fabric8NodeClaimStore(KubernetesClient client, ClusterLists lists, OptimisticPatcher patcher) {
    this.client = client;
    this.lists = lists;
    this.patcher = patcher;
  }

  @Override
  public Optional<NodeClaim> getNodeClaim(String name) {
    return Optional.ofNullable(nodeClaim(name).get());
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
    var outcome = patcher.apply(NodeClaim.class, name, true, current -> {
      NodeClaimStatus stored = current.getStatus();
      NodeClaimStatus target = new NodeClaimStatus(
          patch.providerID() != null ? patch.providerID() : stored == null ? null : stored.providerID(),
          patch.imageID() != null ? patch.imageID() : stored == null ? null : stored.imageID(),
          patch.nodeName() != null ? patch.nodeName() : stored == null ? null : stored.nodeName(),
          patch.capacity() != null ? patch.capacity() : stored == null ? null : stored.capacity(),
          patch.allocatable() != null ? patch.allocatable() : stored == null ? null : stored.allocatable(),
          mergeConditions(stored == null ? null : stored.conditions(), observedAt(current, patch.conditions()), removedConditions),
          patch.lastPodEventTime() != null ? patch.lastPodEventTime() : stored == null ? null : stored.lastPodEventTime());
      return statusPatch(stored, target);
    });
    return require(outcome, NodeClaim.KIND, name);
  }

  @Override
  public boolean addNodeClaimFinalizer(String name, String finalizer) {
    var outcome = patcher.apply(NodeClaim.class, name, false, withFinalizer(finalizer, true));
    require(outcome, NodeClaim.KIND, name);
    return outcome.changed();
  }

  @Override
  public boolean removeNodeClaimFinalizer(String name, String finalizer) {
    return patcher.apply(NodeClaim.class, name, false, withFinalizer(finalizer, false)).changed();
  }

  @Override
  public void deleteNodeClaim(String name) {
    nodeClaim(name).delete();
  }

  @Override
  public boolean patchNodeClaimMetadata(String name, Map<String, String> labels, Map<String, String> annotations) {
    var outcome = patcher.apply(NodeClaim.class, name, false, claim -> {
      Map<String, Object> metadata = metadataChanges(claim, labels, annotations);
      return metadata.isEmpty() ? null : Map.of("metadata", metadata);
    });
    require(outcome, NodeClaim.KIND, name);
    return outcome.changed();
  }

  private Resource<NodeClaim> nodeClaim(String name) {
    return client.resources(NodeClaim.class).withName(name);
  }
}
