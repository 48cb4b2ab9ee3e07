package dev.farrier.planner;

/**
 * A volume a pod attaches through a CSI driver, as the kube-scheduler's NodeVolumeLimits filter counts it: a node takes
 * at most its {@code CSINode}'s {@code allocatable.count} distinct volumes of each driver, and pods sharing a claim
 * share one volume.
 *
 * @param driver the CSI driver: the bound PersistentVolume's {@code csi.driver} (an in-tree EBS volume counts as
 *               {@code ebs.csi.aws.com}), else the StorageClass's provisioner
 * @param claim  the PersistentVolumeClaim, {@code namespace/name}: what makes two pods' volumes one
 */
public record CsiVolume(String driver, String claim) {}
