package dev.farrier.activities.provisioning;

import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.model.Requirement;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The zone a pod's volumes tie it to, as a node requirement: a bound PersistentVolume's node affinity, or, for an
 * unbound claim whose StorageClass binds WaitForFirstConsumer, the class's {@code allowedTopologies}. Claims that
 * bind Immediately and are not bound yet add nothing (the pod waits for the binding, which then says). Reads PVCs,
 * PVs and StorageClasses once per planning round, and only when a pending pod has a claim.
 */
final class VolumeTopology {
  /** Zone keys storage drivers write; each means {@code topology.kubernetes.io/zone}. */
  static final Set<String> ZONE_KEYS = Set.of(WellKnown.ZONE_LABEL, "failure-domain.beta.kubernetes.io/zone",
      "topology.ebs.csi.aws.com/zone");
  static final String DEFAULT_CLASS_ANNOTATION = "storageclass.kubernetes.io/is-default-class";

  private final StorageObjects storage;

  VolumeTopology(ClusterReader cluster) {
    this.storage = new StorageObjects(cluster);
  }

  List<Requirement> of(Pod pod) {
    List<Requirement> out = new ArrayList<>();
    for (PersistentVolumeClaim claim : storage.claimsOf(pod).values()) {
      Set<String> zones = zonesOf(claim);
      if (zones != null) {
        out.add(new Requirement(WellKnown.ZONE_LABEL, "In", List.copyOf(zones), null));
      }
    }
    return out;
  }

  /** The zones the claim's volume is (or may be created) in; null when it does not restrict the zone. */
  private Set<String> zonesOf(PersistentVolumeClaim claim) {
    String volumeName = claim.getSpec().getVolumeName();
    if (volumeName != null && !volumeName.isEmpty()) {
      PersistentVolume pv = storage.volume(volumeName);
      if (pv == null || pv.getSpec().getNodeAffinity() == null || pv.getSpec().getNodeAffinity().getRequired() == null) {
        return null;
      }
      Set<String> zones = new TreeSet<>();
      for (var term : pv.getSpec().getNodeAffinity().getRequired().getNodeSelectorTerms()) {
        Set<String> termZones = null;
        for (var r : term.getMatchExpressions() == null ? List.<io.fabric8.kubernetes.api.model.NodeSelectorRequirement>of() : term.getMatchExpressions()) {
          if (ZONE_KEYS.contains(r.getKey()) && "In".equals(r.getOperator()) && r.getValues() != null) {
            termZones = new TreeSet<>(r.getValues());
          }
        }
        if (termZones == null) {
          return null; // a term that allows any zone: the volume does not tie the pod to one
        }
        zones.addAll(termZones);
      }
      return zones.isEmpty() ? null : zones;
    }
    StorageClass storageClass = storageClassOf(claim);
    if (storageClass == null || !"WaitForFirstConsumer".equals(storageClass.getVolumeBindingMode())
        || storageClass.getAllowedTopologies() == null) {
      return null;
    }
    Set<String> zones = new TreeSet<>();
    for (var term : storageClass.getAllowedTopologies()) {
      for (var e : term.getMatchLabelExpressions() == null ? List.<io.fabric8.kubernetes.api.model.TopologySelectorLabelRequirement>of() : term.getMatchLabelExpressions()) {
        if (ZONE_KEYS.contains(e.getKey()) && e.getValues() != null) {
          zones.addAll(e.getValues());
        }
      }
    }
    return zones.isEmpty() ? null : zones;
  }

  private StorageClass storageClassOf(PersistentVolumeClaim claim) {
    String name = claim.getSpec().getStorageClassName();
    if (name != null) {
      return storage.storageClass(name);
    }
    return storage.storageClasses().stream()
        .filter(c -> c.getMetadata().getAnnotations() != null && "true".equals(c.getMetadata().getAnnotations().get(DEFAULT_CLASS_ANNOTATION)))
        .findFirst().orElse(null);
  }

}
