package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.crd.BlockDevice;
import dev.farrier.activities.crd.BlockDeviceMapping;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateBlockDeviceMappingRequest;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateEbsBlockDeviceRequest;

/**
 * The volumes of a launch template: the EC2NodeClass's {@code blockDeviceMappings} when it has any, else
 * Karpenter v1's defaults per family (AL2/AL2023: 20Gi gp3 root on /dev/xvda; Bottlerocket: 4Gi OS volume on
 * /dev/xvda and 20Gi data volume on /dev/xvdb; Windows: 50Gi gp3 root on /dev/sda1; Custom: the image's own). Every volume Farrier fills in is encrypted
 * and deleted with the instance.
 */
final class BlockDevices {
  /** The root device of Windows images, where kubelet's root directory lives. */
  static final String WINDOWS_ROOT_DEVICE = "/dev/sda1";
  private static final Pattern QUANTITY = Pattern.compile("^(\\d+)(Gi|G|Ti|T|Mi|M)?$");

  private BlockDevices() {}

  static List<BlockDeviceMapping> defaults(String amiFamily) {
    return switch (amiFamily.toLowerCase(Locale.ROOT)) {
      case "al2", "al2023" -> List.of(gp3("/dev/xvda", "20Gi"));
      case "bottlerocket" -> List.of(gp3("/dev/xvda", "4Gi"), gp3("/dev/xvdb", "20Gi"));
      case "windows2019", "windows2022", "windows2025" -> List.of(gp3(WINDOWS_ROOT_DEVICE, "50Gi"));
      default -> List.of();
    };
  }

  private static BlockDeviceMapping gp3(String device, String size) {
    return new BlockDeviceMapping(device, new BlockDevice(true, true, null, null, null, null, size, "gp3"), null);
  }

  static List<BlockDeviceMapping> effective(String amiFamily, List<BlockDeviceMapping> configured) {
    return configured == null || configured.isEmpty() ? defaults(amiFamily) : configured;
  }

  static LaunchTemplateBlockDeviceMappingRequest toRequest(BlockDeviceMapping mapping) {
    BlockDevice ebs = mapping.ebs();
    if (ebs == null) {
      return LaunchTemplateBlockDeviceMappingRequest.builder().deviceName(mapping.deviceName()).build();
    }
    return LaunchTemplateBlockDeviceMappingRequest.builder()
        .deviceName(mapping.deviceName())
        .ebs(LaunchTemplateEbsBlockDeviceRequest.builder()
            .volumeSize(ebs.volumeSize() == null ? null : gib(ebs.volumeSize()))
            .volumeType(ebs.volumeType() == null ? "gp3" : ebs.volumeType())
            .encrypted(ebs.encrypted() == null || ebs.encrypted())
            .deleteOnTermination(ebs.deleteOnTermination() == null || ebs.deleteOnTermination())
            .iops(ebs.iops() == null ? null : ebs.iops().intValue())
            .throughput(ebs.throughput() == null ? null : ebs.throughput().intValue())
            .kmsKeyId(ebs.kmsKeyID())
            .snapshotId(ebs.snapshotID())
            .volumeInitializationRate(ebs.volumeInitializationRate())
            .build())
        .build();
  }

  /** A Kubernetes quantity as whole GiB, rounded up (EBS sizes are GiB). Throws on anything unparseable. */
  static int gib(String quantity) {
    Matcher m = QUANTITY.matcher(quantity.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException("volumeSize '" + quantity + "' is not a size such as 20Gi");
    }
    double value = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "" : m.group(2);
    double bytes = switch (unit) {
      case "Gi" -> value * (1L << 30);
      case "G" -> value * 1e9;
      case "Ti" -> value * (1L << 40);
      case "T" -> value * 1e12;
      case "Mi" -> value * (1L << 20);
      case "M" -> value * 1e6;
      default -> value;
    };
    return (int) Math.ceil(bytes / (1L << 30));
  }
}
