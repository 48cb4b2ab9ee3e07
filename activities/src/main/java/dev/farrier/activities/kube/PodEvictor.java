package dev.farrier.activities.kube;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/**
 * What a drain does to pods: list a node's pods, evict them through the Eviction API, delete them past their
 * PodDisruptionBudgets. Every call is bounded and never retried inside: a drain pass heartbeats between calls.
 */
public interface PodEvictor {
  /**
   * Every pod bound to the node, in all namespaces (terminal ones included: callers decide what counts). One call of
   * at most a few seconds, never retried inside: a drain pass heartbeats between calls.
   */
  List<Pod> listPodsOnNode(String nodeName);

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
}
