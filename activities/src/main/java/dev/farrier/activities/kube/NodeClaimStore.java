package dev.farrier.activities.kube;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * NodeClaims: reads and the idempotent writes of their lifecycle. The contracts of {@link Cluster} apply.
 */
public interface NodeClaimStore {
  Optional<NodeClaim> getNodeClaim(String name);

  List<NodeClaim> listNodeClaims();

  /** The NodeClaims labelled {@code karpenter.sh/nodepool=<nodePool>}. */
  List<NodeClaim> listNodeClaimsOfNodePool(String nodePool);

  /**
   * Creates the claim unless one of its name exists, and returns the stored claim (the existing one if there was
   * one: the name is deterministic, so an existing claim is this request's earlier attempt).
   */
  NodeClaim createNodeClaimIfAbsent(NodeClaim claim);

  /**
   * Patches the claim's status as {@link #patchNodeClassStatus} does (providerID, imageID, nodeName, capacity,
   * allocatable, lastPodEventTime when non-null; conditions merged by type). Idempotent for the same reason.
   * Throws {@link ObjectNotFoundException}.
   */
  NodeClaim patchNodeClaimStatus(String name, NodeClaimStatus patch);

  /**
   * Merges {@code set} into the claim's conditions by type (as {@link #patchNodeClaimStatus}: an unchanged status keeps
   * its lastTransitionTime) and removes the conditions of the {@code removed} types, in one status write with the
   * read resourceVersion as precondition (retried from a fresh read on conflict). Idempotent: when the conditions are
   * already so nothing is sent. Throws {@link ObjectNotFoundException}.
   */
  NodeClaim patchNodeClaimConditions(String name, List<Condition> set, Collection<String> removed);

  /**
   * Merges labels and annotations into the claim's metadata (once launched: the instance type's labels, zone and
   * capacity type, what {@code kubectl get nodeclaims} shows, and what drift compares later). Idempotent as
   * {@link NodeWriter#patchNodeMetadata}. Throws {@link ObjectNotFoundException}.
   */
  boolean patchNodeClaimMetadata(String name, Map<String, String> labels, Map<String, String> annotations);

  /** Adds the finalizer unless present. Throws {@link ObjectNotFoundException}. */
  boolean addNodeClaimFinalizer(String name, String finalizer);

  /** Removes the finalizer if present; false when absent or the claim is gone. */
  boolean removeNodeClaimFinalizer(String name, String finalizer);

  /** Requests deletion (finalizers still hold it until removed); a missing claim is done. */
  void deleteNodeClaim(String name);
}
