package dev.farrier.activities.nodeclass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.InstanceFacts;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.crd.ResolvedSubnet;
import dev.farrier.model.WellKnown;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The labels a launch records on its NodeClaim: the type's AWS labels and the zone's id from the launch's subnet. */
class DriftFactsLaunchLabelsTest {
  private static final InstanceType INF2 = new InstanceType("inf2.xlarge", "x86_64", 4, 16384, 0, "", "", 4, 15, false, List.of(),
      new InstanceFacts("nitro", "AMD", 3600, null, false, 2083, 10000, null, "Inferentia2", "AWS", 1, true));

  private static Instance instance(String zone, String subnet) {
    return new Instance("i-1", "aws:///" + zone + "/i-1", "inf2.xlarge", zone, "on-demand", "ami-1", "running", "ip", 0.76, Map.of(),
        Instant.EPOCH, subnet, List.of());
  }

  @Test
  void theClaimGetsTheTypesLabelsAndTheZoneIdOfItsSubnet() {
    var subnets = List.of(new ResolvedSubnet("subnet-a", "us-east-1a", "use1-az6"), new ResolvedSubnet("subnet-b", "us-east-1b", "use1-az1"));
    Map<String, String> labels = DriftFacts.launchLabels(instance("us-east-1b", "subnet-b"), Optional.of(INF2), subnets, "AL2023");
    assertEquals("linux", labels.get(WellKnown.OS_LABEL));
    assertEquals("use1-az1", labels.get(WellKnown.ZONE_ID_LABEL));
    assertEquals(List.of("amd", "3600", "2083", "10000", "inferentia2", "aws", "1", "true", "false", "nitro"), List.of(
        labels.get(WellKnown.INSTANCE_CPU_MANUFACTURER_LABEL), labels.get(WellKnown.INSTANCE_CPU_SUSTAINED_CLOCK_SPEED_MHZ_LABEL),
        labels.get(WellKnown.INSTANCE_NETWORK_BANDWIDTH_LABEL), labels.get(WellKnown.INSTANCE_EBS_BANDWIDTH_LABEL),
        labels.get(WellKnown.INSTANCE_ACCELERATOR_NAME_LABEL), labels.get(WellKnown.INSTANCE_ACCELERATOR_MANUFACTURER_LABEL),
        labels.get(WellKnown.INSTANCE_ACCELERATOR_COUNT_LABEL), labels.get(WellKnown.INSTANCE_ENCRYPTION_IN_TRANSIT_LABEL),
        labels.get(WellKnown.INSTANCE_CAPABILITY_FLEX_LABEL), labels.get(WellKnown.INSTANCE_HYPERVISOR_LABEL)));
    assertFalse(labels.containsKey(WellKnown.INSTANCE_GPU_COUNT_LABEL), "no GPU, no GPU labels");
    assertFalse(labels.containsKey(WellKnown.INSTANCE_LOCAL_NVME_LABEL), "no NVMe instance storage");
  }

  @Test
  void noZoneIdWithoutASubnetThatNamesOne() {
    assertFalse(DriftFacts.launchLabels(instance("us-east-1a", null), Optional.of(INF2), List.of(new ResolvedSubnet("subnet-a", "us-east-1a",
        null)), "AL2023").containsKey(WellKnown.ZONE_ID_LABEL));
  }

  @Test
  void aWindowsClaimIsWindowsWithItsBuild() {
    Map<String, String> labels = DriftFacts.launchLabels(instance("us-east-1a", null), Optional.of(INF2), List.of(), "Windows2022");
    assertEquals("windows", labels.get(WellKnown.OS_LABEL));
    assertEquals("10.0.20348", labels.get(WellKnown.WINDOWS_BUILD_LABEL));
  }
}
