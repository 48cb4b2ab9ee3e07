package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.farrier.activities.crd.BlockDevice;
import dev.farrier.activities.crd.BlockDeviceMapping;
import dev.farrier.activities.crd.ConnectionTracking;
import dev.farrier.activities.crd.CpuOptions;
import dev.farrier.activities.crd.MetadataOptions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A launch template's name changes with every setting it holds, and the templates of classes that set none of the
 * network interface, CPU or volume initialization settings keep the names they had before those settings existed.
 */
class LaunchTemplateNameTest {
  private static final BlockDevice ROOT = new BlockDevice(true, true, null, null, null, null, "20Gi", "gp3");
  private static final BlockDevice FROM_SNAPSHOT = new BlockDevice(true, true, null, null, "snap-0123456789abcdef0", null, null, "gp3");

  private static LaunchTemplateSpec spec(BlockDevice data, ConnectionTracking tracking, Integer prefixes, CpuOptions cpu) {
    return new LaunchTemplateSpec("c1", "ami-1", List.of("sg-1"), "#!/bin/bash", MetadataOptions.DEFAULT,
        List.of(new BlockDeviceMapping("/dev/xvda", ROOT, true), new BlockDeviceMapping("/dev/xvdb", data, null)), Map.of("team", "a"),
        "profile", null, null, null, null, tracking, prefixes, cpu);
  }

  @Test
  void aClassWithoutTheNewSettingsKeepsTheNameItHad() throws Exception {
    // The text the name hashed before connection tracking, prefixes, CPU options and initialization rates existed.
    String before = String.join("\n", "c1", "ami-1", "sg-1", "#!/bin/bash", String.valueOf(MetadataOptions.DEFAULT),
        "[BlockDeviceMapping[deviceName=/dev/xvda, ebs=BlockDevice[deleteOnTermination=true, encrypted=true, iops=null, kmsKeyID=null,"
            + " snapshotID=null, throughput=null, volumeSize=20Gi, volumeType=gp3], rootVolume=true], BlockDeviceMapping[deviceName=/dev/xvdb,"
            + " ebs=BlockDevice[deleteOnTermination=true, encrypted=true, iops=null, kmsKeyID=null, snapshotID=snap-0123456789abcdef0,"
            + " throughput=null, volumeSize=null, volumeType=gp3], rootVolume=null]]",
        "{team=a}", "profile");
    String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(before.getBytes(StandardCharsets.UTF_8)));
    assertEquals(LaunchTemplateSpec.nameOf("c1", hash.substring(0, 20)), spec(FROM_SNAPSHOT, null, null, null).name());
  }

  @Test
  void eachSettingMakesItsOwnTemplate() {
    String plain = spec(FROM_SNAPSHOT, null, null, null).name();
    var names = List.of(plain,
        spec(FROM_SNAPSHOT, new ConnectionTracking(600, null, null), null, null).name(),
        spec(FROM_SNAPSHOT, new ConnectionTracking(700, null, null), null, null).name(),
        spec(FROM_SNAPSHOT, null, 1, null).name(),
        spec(FROM_SNAPSHOT, null, 2, null).name(),
        spec(FROM_SNAPSHOT, null, null, new CpuOptions("enabled")).name(),
        spec(FROM_SNAPSHOT, null, null, new CpuOptions("disabled")).name(),
        spec(new BlockDevice(true, true, null, null, "snap-0123456789abcdef0", null, null, "gp3", 200), null, null, null).name());
    assertEquals(names.size(), names.stream().distinct().count(), names.toString());
    assertNotEquals(plain, spec(new BlockDevice(true, true, null, null, "snap-0123456789abcdef0", null, null, "gp3", 300), null, null,
        null).name());
  }
}
