package dev.farrier.activities.kube;

import dev.farrier.model.Taint;
import java.util.Map;

/**
 * The writes a disruption makes to a Node (taints, cordon, annotations, finalizers, delete). The contracts of
 * {@link Cluster} apply.
 */
public interface NodeWriter {

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

  /**
   * What registering a node writes to it, in one read-modify-write instead of three: merges {@code labels} and
   * {@code annotations} (as {@link #patchNodeMetadata}), adds {@code finalizer} unless present and removes the taints
   * with {@code removedTaint}'s key and effect. Idempotent; nothing is sent when the node is already so. Throws
   * {@link ObjectNotFoundException}.
   */
  boolean registerNode(String name, Map<String, String> labels, Map<String, String> annotations, String finalizer, Taint removedTaint);

  /** Requests deletion (finalizers still hold it until removed); a missing node is done. */
  void deleteNode(String name);
}
