package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.crd.BlockDeviceMapping;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The ephemeral storage a node offers pods: the size of the volume kubelet's root directory lives on, chosen as
 * Karpenter's AWS provider does. The mapping marked {@code rootVolume}; else, for Custom, the last mapping; else the
 * mapping on the family's ephemeral device (/dev/xvda for AL2 and AL2023, Bottlerocket's data volume /dev/xvdb);
 * else that device's default size ({@link BlockDevices#defaults}); else 20Gi. Sizes are whole GiB, rounded up, as EBS
 * creates them ({@link BlockDevices#gib}).
 */
public final class EphemeralStorage {
  private static final long GIB = 1L << 30;
  /** Karpenter's default EBS volume size, for an image whose volumes Farrier does not know. */
  public static final long DEFAULT_BYTES = 20 * GIB;

  private EphemeralStorage() {}

  /** Throws {@link IllegalArgumentException} naming the size when a chosen volume's size is not a quantity. */
  public static long bytes(String amiFamily, List<BlockDeviceMapping> mappings) {
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
    String device = family.equals("bottlerocket") ? "/dev/xvdb" : "/dev/xvda";
    return mappings.stream().filter(m -> device.equals(m.deviceName())).findFirst();
  }

  private static String size(BlockDeviceMapping mapping) {
    return mapping.ebs() == null ? null : mapping.ebs().volumeSize();
  }
}
