package dev.farrier.activities.provisioning;

import dev.farrier.activities.kube.ClusterReader;
import dev.farrier.planner.CsiVolume;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What CSI volume limits need, read from the cluster once per planning round: each pod's claims with the CSI driver
 * that attaches them, and each node's limits from its {@code CSINode}. A driver is resolved as Karpenter resolves it:
 * the bound PersistentVolume's {@code csi.driver} (an in-tree {@code awsElasticBlockStore} volume is
 * {@value #EBS_DRIVER}), else for an unbound claim the provisioner of the StorageClass it names
 * ({@value #IN_TREE_EBS} is {@value #EBS_DRIVER}); a claim with neither (no class named, a class or volume gone, another
 * volume type) counts against no limit. CSINodes are read only when some claim exists.
 */
public final class CsiVolumes {
  static final String EBS_DRIVER = "ebs.csi.aws.com";
  static final String IN_TREE_EBS = "kubernetes.io/aws-ebs";

  /** No volumes, no limits: for callers without a cluster to read. */
  public static final CsiVolumes NONE = new CsiVolumes(null);

  private final ClusterReader cluster;
  private final StorageObjects storage;
  private Map<String, Map<String, Integer>> limitsByNode;

  private CsiVolumes(ClusterReader cluster) {
    this.cluster = cluster;
    this.storage = cluster == null ? null : new StorageObjects(cluster);
  }

  public static CsiVolumes of(ClusterReader cluster) {
    return new CsiVolumes(cluster);
  }

  /** The pod's claims (its own and generic ephemeral ones) that a CSI driver attaches. */
  public List<CsiVolume> of(Pod pod) {
    if (storage == null) {
      return List.of();
    }
    List<CsiVolume> out = new ArrayList<>();
    storage.claimsOf(pod).forEach((key, claim) -> {
      String driver = driverOf(claim);
      if (driver != null) {
        out.add(new CsiVolume(driver, key));
      }
    });
    return out;
  }

  /** Per CSI driver, how many volumes of it the node attaches at most; empty when it has no CSINode or no claim exists. */
  public Map<String, Integer> limits(String nodeName) {
    if (storage == null) {
      return Map.of();
    }
    if (limitsByNode == null) {
      limitsByNode = new HashMap<>();
      if (storage.anyClaim()) {
        for (var csiNode : cluster.listCSINodes()) {
          Map<String, Integer> limits = new HashMap<>();
          for (var driver : csiNode.getSpec() == null || csiNode.getSpec().getDrivers() == null
              ? List.<io.fabric8.kubernetes.api.model.storage.CSINodeDriver>of() : csiNode.getSpec().getDrivers()) {
            if (driver.getAllocatable() != null && driver.getAllocatable().getCount() != null) {
              limits.put(driver.getName(), driver.getAllocatable().getCount());
            }
          }
          limitsByNode.put(csiNode.getMetadata().getName(), Map.copyOf(limits));
        }
      }
    }
    return limitsByNode.getOrDefault(nodeName, Map.of());
  }

  private String driverOf(PersistentVolumeClaim claim) {
    String volumeName = claim.getSpec().getVolumeName();
    if (volumeName != null && !volumeName.isEmpty()) {
      PersistentVolume pv = storage.volume(volumeName);
      if (pv == null) {
        return null;
      }
      if (pv.getSpec().getCsi() != null) {
        return pv.getSpec().getCsi().getDriver();
      }
      return pv.getSpec().getAwsElasticBlockStore() != null ? EBS_DRIVER : null;
    }
    String className = claim.getSpec().getStorageClassName();
    StorageClass storageClass = className == null || className.isEmpty() ? null : storage.storageClass(className);
    if (storageClass == null) {
      return null;
    }
    return IN_TREE_EBS.equals(storageClass.getProvisioner()) ? EBS_DRIVER : storageClass.getProvisioner();
  }
}
