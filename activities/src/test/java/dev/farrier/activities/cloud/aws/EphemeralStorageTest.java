package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.crd.BlockDevice;
import dev.farrier.activities.crd.BlockDeviceMapping;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ephemeral storage a node offers comes from its class's volumes, chosen as Karpenter's AWS provider does. */
class EphemeralStorageTest {
  private static final long GIB = 1L << 30;

  private static BlockDeviceMapping volume(String device, String size, Boolean root) {
    return new BlockDeviceMapping(device, new BlockDevice(null, null, null, null, null, null, size, "gp3"), root);
  }

  @Test
  void theRootVolumeMappingWinsWhateverItsDevice() {
    assertEquals(100 * GIB, EphemeralStorage.rootVolume("AL2023", List.of(volume("/dev/xvda", "30Gi", null), volume("/dev/xvdc", "100Gi", true))));
  }

  @Test
  void elseTheFamilysEphemeralDevice() {
    assertEquals(80 * GIB, EphemeralStorage.rootVolume("AL2", List.of(volume("/dev/xvdb", "10Gi", null), volume("/dev/xvda", "80Gi", null))));
    assertEquals(60 * GIB, EphemeralStorage.rootVolume("Bottlerocket", List.of(volume("/dev/xvda", "4Gi", null), volume("/dev/xvdb", "60Gi", null))),
        "Bottlerocket's data volume, not its OS volume");
    assertEquals(70 * GIB, EphemeralStorage.rootVolume("Windows2022", List.of(volume("/dev/xvda", "10Gi", null), volume("/dev/sda1", "70Gi", null))),
        "Windows: the root device /dev/sda1");
    assertEquals(40 * GIB, EphemeralStorage.rootVolume("Custom", List.of(volume("/dev/sda1", "8Gi", null), volume("/dev/sdb", "40Gi", null))),
        "Custom: the last mapping");
  }

  @Test
  void elseTheFamilysDefaultAndSizesRoundUpToWholeGib() {
    assertEquals(20 * GIB, EphemeralStorage.rootVolume("AL2023", List.of()));
    assertEquals(20 * GIB, EphemeralStorage.rootVolume("Bottlerocket", null));
    assertEquals(50 * GIB, EphemeralStorage.rootVolume("Windows2019", null), "Windows: Karpenter's 50Gi on /dev/sda1");
    assertEquals(List.of(new BlockDeviceMapping("/dev/sda1", new BlockDevice(true, true, null, null, null, null, "50Gi", "gp3"), null)),
        BlockDevices.defaults("Windows2025"));
    assertEquals(20 * GIB, EphemeralStorage.rootVolume("AL2023", List.of(volume("/dev/xvdc", "100Gi", null))), "no mapping on /dev/xvda");
    assertEquals(20 * GIB, EphemeralStorage.rootVolume(null, List.of()));
    assertEquals(10 * GIB, EphemeralStorage.rootVolume("AL2", List.of(volume("/dev/xvda", "10G", null))), "10G is 9.3GiB, EBS makes 10GiB");
    assertThrows(IllegalArgumentException.class, () -> EphemeralStorage.rootVolume("AL2", List.of(volume("/dev/xvda", "big", true))));
  }

  private static InstanceType type(String name, long instanceStoreGb) {
    return new InstanceType(name, "x86_64", 2, 8192, 0, "", "", 3, 10, false, instanceStoreGb, List.of());
  }

  @Test
  void raid0OffersTheInstanceStoreOnATypeThatHasOne() {
    var raid0 = EphemeralStorage.of("AL2023", List.of(volume("/dev/xvda", "80Gi", null)), "RAID0");
    assertEquals(75_000_000_000L, raid0.bytes(type("m5d.large", 75)), "75 GB as EC2 counts it (decimal), not 75Gi");
    assertEquals(80 * GIB, raid0.bytes(type("m5.large", 0)), "no instance store: the root volume");
  }

  @Test
  void withoutRaid0TheRootVolumeEvenOnATypeWithAnInstanceStore() {
    var unset = EphemeralStorage.of("AL2023", List.of(volume("/dev/xvda", "80Gi", null)), null);
    assertEquals(80 * GIB, unset.bytes(type("m5d.large", 75)));
    assertEquals(20 * GIB, EphemeralStorage.DEFAULT.bytes(type("i3.16xlarge", 15200)));
  }
}
