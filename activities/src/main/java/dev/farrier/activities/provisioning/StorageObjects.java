package dev.farrier.activities.provisioning;

import dev.farrier.activities.kube.ClusterReader;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The cluster's PersistentVolumeClaims, PersistentVolumes and StorageClasses as a planning round reads them: listed
 * once, on first use, and only when a pod has a claim.
 */
final class StorageObjects {
  private final ClusterReader cluster;
  private Map<String, PersistentVolumeClaim> claims;
  private Map<String, PersistentVolume> volumes;
  private Map<String, StorageClass> classes;

  StorageObjects(ClusterReader cluster) {
    this.cluster = cluster;
  }

  /**
   * The pod's claims that exist, by {@code namespace/name}: those its volumes name and those of its generic ephemeral
   * volumes ({@code <pod>-<volume>}).
   */
  Map<String, PersistentVolumeClaim> claimsOf(Pod pod) {
    Map<String, PersistentVolumeClaim> out = new LinkedHashMap<>();
    if (pod.getSpec() == null || pod.getSpec().getVolumes() == null) {
      return out;
    }
    for (var volume : pod.getSpec().getVolumes()) {
      String claimName = volume.getPersistentVolumeClaim() != null ? volume.getPersistentVolumeClaim().getClaimName()
          : volume.getEphemeral() != null ? pod.getMetadata().getName() + "-" + volume.getName() : null;
      if (claimName != null) {
        load();
        String key = pod.getMetadata().getNamespace() + "/" + claimName;
        PersistentVolumeClaim claim = claims.get(key);
        if (claim != null) {
          out.put(key, claim);
        }
      }
    }
    return out;
  }

  /** Whether any claim exists in the cluster. */
  boolean anyClaim() {
    load();
    return !claims.isEmpty();
  }

  PersistentVolume volume(String name) {
    load();
    return volumes.get(name);
  }

  StorageClass storageClass(String name) {
    load();
    return classes.get(name);
  }

  Collection<StorageClass> storageClasses() {
    load();
    return classes.values();
  }

  private void load() {
    if (claims != null) {
      return;
    }
    claims = new HashMap<>();
    cluster.listPersistentVolumeClaims().forEach(c -> claims.put(c.getMetadata().getNamespace() + "/" + c.getMetadata().getName(), c));
    volumes = new HashMap<>();
    cluster.listPersistentVolumes().forEach(v -> volumes.put(v.getMetadata().getName(), v));
    classes = new HashMap<>();
    cluster.listStorageClasses().forEach(c -> classes.put(c.getMetadata().getName(), c));
  }
}
