package dev.farrier.activities.kube;

import dev.farrier.activities.crd.AmiSelectorTerm;
import java.util.List;
import java.util.Map;

/** The writes a fleet upgrade makes: NodePool ownership and an EC2NodeClass's images. The contracts of {@link Cluster} apply. */
public interface RolloutWriter {
  /**
   * Sets the NodePool's annotation {@code key} to {@code value} (null removes it) only while it holds {@code expected}
   * (null: absent) or {@code value} already, with the read resourceVersion as precondition, so two rollouts can never
   * both take a NodePool. Returns the value the annotation holds afterwards: {@code value} when set (or already so),
   * the other holder's otherwise. Throws {@link ObjectNotFoundException}.
   */
  String compareAndSetNodePoolAnnotation(String name, String key, String expected, String value);

  /**
   * Writes the EC2NodeClass's {@code amiSelectorTerms} and {@code amiFamily} (null removes it) and merges
   * {@code annotations} (a null value removes the key). Idempotent. Throws {@link ObjectNotFoundException}.
   */
  void setNodeClassImages(String name, List<AmiSelectorTerm> terms, String amiFamily, Map<String, String> annotations);

  /** Merges {@code annotations} into the EC2NodeClass's (a null value removes the key). Idempotent. Throws {@link ObjectNotFoundException}. */
  void patchNodeClassAnnotations(String name, Map<String, String> annotations);
}
