package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
    assertEquals(100 * GIB, EphemeralStorage.bytes("AL2023", List.of(volume("/dev/xvda", "30Gi", null), volume("/dev/xvdc", "100Gi", true))));
  }

  @Test
  void elseTheFamilysEphemeralDevice() {
    assertEquals(80 * GIB, EphemeralStorage.bytes("AL2", List.of(volume("/dev/xvdb", "10Gi", null), volume("/dev/xvda", "80Gi", null))));
    assertEquals(60 * GIB, EphemeralStorage.bytes("Bottlerocket", List.of(volume("/dev/xvda", "4Gi", null), volume("/dev/xvdb", "60Gi", null))),
        "Bottlerocket's data volume, not its OS volume");
    assertEquals(40 * GIB, EphemeralStorage.bytes("Custom", List.of(volume("/dev/sda1", "8Gi", null), volume("/dev/sdb", "40Gi", null))),
        "Custom: the last mapping");
  }

  @Test
  void elseTheFamilysDefaultAndSizesRoundUpToWholeGib() {
    assertEquals(20 * GIB, EphemeralStorage.bytes("AL2023", List.of()));
    assertEquals(20 * GIB, EphemeralStorage.bytes("Bottlerocket", null));
    assertEquals(20 * GIB, EphemeralStorage.bytes("AL2023", List.of(volume("/dev/xvdc", "100Gi", null))), "no mapping on /dev/xvda");
    assertEquals(20 * GIB, EphemeralStorage.bytes(null, List.of()));
    assertEquals(10 * GIB, EphemeralStorage.bytes("AL2", List.of(volume("/dev/xvda", "10G", null))), "10G is 9.3GiB, EBS makes 10GiB");
    assertThrows(IllegalArgumentException.class, () -> EphemeralStorage.bytes("AL2", List.of(volume("/dev/xvda", "big", true))));
  }
}
