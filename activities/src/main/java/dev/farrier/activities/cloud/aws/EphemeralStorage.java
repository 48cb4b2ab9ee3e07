package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.crd.BlockDeviceMapping;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The ephemeral storage a node of an EC2NodeClass offers pods, chosen as Karpenter's AWS provider does. With
 * {@code instanceStorePolicy: RAID0} on a type that has instance-store disks, the node's user data makes them one
 * RAID0 array under kubelet and containerd, so it offers their total size (decimal GB, as EC2 states
 * {@code TotalSizeInGB} and Karpenter counts it). Otherwise it offers the volume kubelet's root directory lives on
 * ({@link #rootVolume}).
 *
 * @param rootVolumeBytes    what a node offers from its volumes
 * @param instanceStoreRaid0 {@code instanceStorePolicy} is RAID0
 */
public record EphemeralStorage(long rootVolumeBytes, boolean instanceStoreRaid0) {
  private static final long GIB = 1L << 30;
  private static final long GB = 1_000_000_000L;
  /** Karpenter's default EBS volume size, for an image whose volumes Farrier does not know. */
  public static final long DEFAULT_BYTES = 20 * GIB;
  /** The one {@code instanceStorePolicy} the API knows. */
  public static final String RAID0 = "RAID0";
  /** A node class with no volumes and no instance-store policy. */
  public static final EphemeralStorage DEFAULT = new EphemeralStorage(DEFAULT_BYTES, false);

  /** Throws {@link IllegalArgumentException} naming the size when a chosen volume's size is not a quantity. */
  public static EphemeralStorage of(String amiFamily, List<BlockDeviceMapping> mappings, String instanceStorePolicy) {
    return new EphemeralStorage(rootVolume(amiFamily, mappings), RAID0.equals(instanceStorePolicy));
  }

  /** What a node of {@code type} offers: its instance store under RAID0 when it has one, else the root volume. */
  public long bytes(InstanceType type) {
    return instanceStoreRaid0 && type.instanceStoreGb() > 0 ? type.instanceStoreGb() * GB : rootVolumeBytes;
  }

  /**
   * The size of the volume kubelet's root directory lives on: the mapping marked {@code rootVolume}; else, for
   * Custom, the last mapping; else the mapping on the family's ephemeral device (/dev/xvda for AL2 and AL2023,
   * Bottlerocket's data volume /dev/xvdb, /dev/sda1 for Windows); else that device's default size ({@link BlockDevices#defaults}); else 20Gi.
   * Sizes are whole GiB, rounded up, as EBS creates them ({@link BlockDevices#gib}). Throws
   * {@link IllegalArgumentException} naming the size when a chosen volume's size is not a quantity.
   */
  public static long rootVolume(String amiFamily, List<BlockDeviceMapping> mappings) {
    String family = amiFamily == null ? "custom" : amiFamily.toLowerCase(Locale.ROOT);
    List<BlockDeviceMapping> configured = mappings == null ? List.of() : mappings;
    Optional<BlockDeviceMapping> chosen = configured.stream().filter(m -> Boolean.TRUE.equals(m.rootVolume())).findFirst();
    if (chosen.isEmpty() && !configured.isEmpty()) {
      chosen = family.equals("custom") ? Optional.of(configured.getLast()) : onDevice(configured, family);
    }
    if (chosen.map(EphemeralStorage::size).isEmpty()) {
      chosen = onDevice(BlockDevices.defaults(family), family);
    }
    return chosen.map(EphemeralStorage::size).map(size -> BlockDevices.gib(size) * GIB).orElse(DEFAULT_BYTES);
  }

  private static Optional<BlockDeviceMapping> onDevice(List<BlockDeviceMapping> mappings, String family) {
    String device = switch (family) {
      case "bottlerocket" -> "/dev/xvdb";
      case "windows2019", "windows2022", "windows2025" -> BlockDevices.WINDOWS_ROOT_DEVICE;
      default -> "/dev/xvda";
    };
    return mappings.stream().filter(m -> device.equals(m.deviceName())).findFirst();
  }

  private static String size(BlockDeviceMapping mapping) {
    return mapping.ebs() == null ? null : mapping.ebs().volumeSize();
  }
}
