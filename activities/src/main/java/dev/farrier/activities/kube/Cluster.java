package dev.farrier.activities.kube;

import dev.farrier.activities.crd.Condition;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.EC2NodeClassStatus;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.crd.NodePool;
import dev.farrier.activities.crd.NodePoolStatus;
import dev.farrier.workflows.model.Taint;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every Kubernetes read and write Farrier makes, and nothing else.
 *
 * <p>Contracts every implementation keeps:
 * <ul>
 *   <li>Every write is idempotent, so an activity retried after a lost response converges instead of doubling
 *       up: creates are create-if-absent, changes are patches toward a target state, and writes that would not
 *       change anything are not sent. Methods that change something return whether they did.</li>
 *   <li>List-valued fields (finalizers, taints, conditions) are changed read-modify-write with the read
 *       resourceVersion as a precondition and retried on conflict, so a concurrent writer's entry is never lost.</li>
 *   <li>Removals and deletes treat a missing object as done. Writes that need their object throw
 *       {@link ObjectNotFoundException}. Any other API failure surfaces as the client's runtime exception
 *       (retryable).</li>
 *   <li>Reads of a missing object return {@link Optional#empty()}.</li>
 * </ul>
 */
public interface Cluster {
  // NodePools and EC2NodeClasses (read-only except the node class status).

  Optional<NodePool> getNodePool(String name);

  List<NodePool> listNodePools();

  Optional<EC2NodeClass> getNodeClass(String name);

  List<EC2NodeClass> listNodeClasses();

  /**
   * Patches the node class's status: non-null fields replace the stored ones, conditions merge by type (a
   * condition whose status is unchanged keeps its lastTransitionTime). Idempotent: the same patch twice leaves
   * the same status and the second is not sent. Throws {@link ObjectNotFoundException}.
   */
  EC2NodeClass patchNodeClassStatus(String name, EC2NodeClassStatus patch);

  /**
   * Patches the NodePool's status as {@link #patchNodeClassStatus} does (resources and nodes when non-null;
   * conditions merged by type). Idempotent for the same reason. Throws {@link ObjectNotFoundException}.
   */
  NodePool patchNodePoolStatus(String name, NodePoolStatus patch);

  // NodeClaims.

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
   * Merges labels into the claim's metadata (what {@code kubectl get nodeclaims} shows: instance type, zone,
   * capacity type once launched). Idempotent as {@link #patchNodeMetadata}. Throws {@link ObjectNotFoundException}.
   */
  boolean patchNodeClaimLabels(String name, Map<String, String> labels);

  /** Adds the finalizer unless present. Throws {@link ObjectNotFoundException}. */
  boolean addNodeClaimFinalizer(String name, String finalizer);

  /** Removes the finalizer if present; false when absent or the claim is gone. */
  boolean removeNodeClaimFinalizer(String name, String finalizer);

  /** Requests deletion (finalizers still hold it until removed); a missing claim is done. */
  void deleteNodeClaim(String name);

  // Nodes.

  Optional<Node> getNode(String name);

  List<Node> listNodes();

  /** The node whose {@code spec.providerID} equals {@code providerId} (there is no field selector for it: lists). */
  Optional<Node> findNodeByProviderId(String providerId);

  /**
   * Merges labels and annotations into the node's metadata; a null value removes that key. Idempotent: a merge
   * patch sets keys to values, and one that would change nothing is not sent. Throws {@link ObjectNotFoundException}.
   */
  boolean patchNodeMetadata(String name, Map<String, String> labels, Map<String, String> annotations);

  /**
   * Ensures the node has the taint (same key and effect; the value is set to the given one). Never adds a
   * duplicate. Throws {@link ObjectNotFoundException}.
   */
  boolean addNodeTaint(String name, Taint taint);

  /** Removes taints with the taint's key and effect (the value is ignored); false when absent or the node is gone. */
  boolean removeNodeTaint(String name, Taint taint);

  /** Marks the node unschedulable unless it already is. Throws {@link ObjectNotFoundException}. */
  boolean cordonNode(String name);

  /** Marks the node schedulable unless it already is; false when the node is gone. */
  boolean uncordonNode(String name);

  /** Adds the finalizer unless present. Throws {@link ObjectNotFoundException}. */
  boolean addNodeFinalizer(String name, String finalizer);

  /** Removes the finalizer if present; false when absent or the node is gone. */
  boolean removeNodeFinalizer(String name, String finalizer);

  /** Requests deletion (finalizers still hold it until removed); a missing node is done. */
  void deleteNode(String name);

  // Pods and what governs their disruption.

  Optional<Pod> getPod(String namespace, String name);

  /**
   * Every pod bound to the node, in all namespaces (terminal ones included: callers decide what counts). One call of
   * at most a few seconds, never retried inside: a drain pass heartbeats between calls.
   */
  List<Pod> listPodsOnNode(String nodeName);

  /** Every pod bound to some node, in all namespaces: one read for a planning round instead of one per node. */
  List<Pod> listBoundPods();

  /** Pods the scheduler could not place: Pending, no node, PodScheduled=False with reason Unschedulable. */
  List<Pod> listPendingPods();

  /** Every pod not bound to a node, in all namespaces: one read for a provisioning batch instead of one per pod. */
  List<Pod> listUnboundPods();

  List<PodDisruptionBudget> listPodDisruptionBudgets();

  List<DaemonSet> listDaemonSets();

  // Storage and namespaces: what the scheduler reads for volume topology and pod affinity namespace selectors.

  List<PersistentVolumeClaim> listPersistentVolumeClaims();

  List<PersistentVolume> listPersistentVolumes();

  List<StorageClass> listStorageClasses();

  List<Namespace> listNamespaces();

  /**
   * Evicts the pod through the policy/v1 Eviction API with the pod's UID as a precondition, so a namesake created
   * since the pod was read is never evicted. Idempotent: evicting a pod already gone or replaced answers
   * {@link EvictionOutcome#GONE}. The API server checks PodDisruptionBudgets before the UID, so a namesake a PDB
   * protects answers blocked rather than gone; either way the namesake stays.
   *
   * @throws PdbBlockedException when a PodDisruptionBudget refuses (429), naming the PDB (from the server's
   *                             message, else the PDB in the pod's namespace whose selector matches the pod)
   */
  EvictionOutcome evictPod(Pod pod) throws PdbBlockedException;

  /**
   * Deletes the pod, bypassing PodDisruptionBudgets (for a forced drain once terminationGracePeriod expired), with
   * the pod's UID as a precondition. {@code gracePeriodSeconds} null keeps the pod's own. Returns false when the
   * pod was already gone or replaced (idempotent for the same reason as {@link #evictPod}).
   */
  boolean deletePod(Pod pod, Long gracePeriodSeconds);

  // Events.

  /**
   * Records a core/v1 Event (reportingComponent {@code farrier}) about a Node or NodeClaim. Idempotent in count of
   * objects: the Event's name is derived from the object, reason and message, so a retry (or a repeat) bumps the
   * existing Event's count instead of creating another.
   */
  void recordEvent(ClusterEvent event);

  /**
   * Records an Event about a Pod in its namespace, unless the same Event (pod UID, reason, message) was counted
   * within {@code window}: the stored Event is the dedupe record (its name derives from that triple), so a reason
   * repeated every planning round is written at most once per window, across worker restarts too. Returns whether
   * it wrote.
   */
  boolean recordPodEvent(PodEvent event, java.time.Duration window);
}
