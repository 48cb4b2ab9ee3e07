package dev.farrier.activities.kube;

import static dev.farrier.activities.kube.MergePatches.metadataChanges;
import static dev.farrier.activities.kube.MergePatches.require;

import dev.farrier.activities.crd.AmiSelectorTerm;
import dev.farrier.activities.crd.EC2NodeClass;
import dev.farrier.activities.crd.NodePool;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link RolloutWriter} on the fabric8 client. Every write is a read-modify-write on the API server
 * ({@link OptimisticPatcher}: the read resourceVersion as precondition, retried from a fresh read on conflict), which
 * is what makes the NodePool annotation a compare-and-set two rollouts cannot both win; nothing is sent when the
 * object is already so. A missing object throws {@link ObjectNotFoundException}.
 */
final class Fabric8RolloutWriter implements RolloutWriter {
  private final OptimisticPatcher patcher;

  Fabric8RolloutWriter(OptimisticPatcher patcher) {
    this.patcher = patcher;
  }

  @Override
  public String compareAndSetNodePoolAnnotation(String name, String key, String expected, String value) {
    String[] holder = new String[1];
    var outcome = patcher.apply(NodePool.class, name, false, pool -> {
      String current = pool.getMetadata().getAnnotations() == null ? null : pool.getMetadata().getAnnotations().get(key);
      holder[0] = current;
      if (java.util.Objects.equals(current, value) || !java.util.Objects.equals(current, expected)) {
        return null;
      }
      Map<String, String> change = new HashMap<>();
      change.put(key, value);
      holder[0] = value;
      return Map.of("metadata", Map.of("annotations", change));
    });
    require(outcome, NodePool.KIND, name);
    return holder[0];
  }

  @Override
  public void setNodeClassImages(String name, List<AmiSelectorTerm> terms, String amiFamily, Map<String, String> annotations) {
    var outcome = patcher.apply(EC2NodeClass.class, name, false, nodeClass -> {
      Map<String, Object> metadata = metadataChanges(nodeClass, null, annotations);
      var spec = nodeClass.getSpec();
      boolean same = spec != null && terms.equals(spec.amiSelectorTermsOrEmpty()) && java.util.Objects.equals(amiFamily, spec.amiFamily());
      if (same && metadata.isEmpty()) {
        return null;
      }
      Map<String, Object> body = new LinkedHashMap<>();
      if (!metadata.isEmpty()) {
        body.put("metadata", metadata);
      }
      Map<String, Object> specPatch = new HashMap<>();
      specPatch.put("amiSelectorTerms", terms);
      specPatch.put("amiFamily", amiFamily);
      body.put("spec", specPatch);
      return body;
    });
    require(outcome, EC2NodeClass.KIND, name);
  }

  @Override
  public void patchNodeClassAnnotations(String name, Map<String, String> annotations) {
    var outcome = patcher.apply(EC2NodeClass.class, name, false, nodeClass -> {
      Map<String, Object> metadata = metadataChanges(nodeClass, null, annotations);
      return metadata.isEmpty() ? null : Map.of("metadata", metadata);
    });
    require(outcome, EC2NodeClass.KIND, name);
  }
}
