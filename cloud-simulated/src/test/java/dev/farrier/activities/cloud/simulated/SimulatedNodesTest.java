package dev.farrier.activities.cloud.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.catalog.InstanceTypeCatalog;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class SimulatedNodesTest {
  @org.junit.jupiter.api.io.TempDir
  java.nio.file.Path stateDir;

  private static final InstanceTypeCatalog CATALOG = InstanceTypeCatalog.load("us-east-1");

  @Test
  void aLaunchedNodeCarriesItsTypesAwsLabelsAndItsZoneId() {
    var cloud = new SimulatedCloud(SimulatedCloudConfig.defaults(stateDir));
    InstanceType type = CATALOG.find("g4dn.xlarge").orElseThrow();
    Instance instance = new Instance("i-0gpu", "aws:///us-east-1a/i-0gpu", type.name(), "us-east-1a", "on-demand", "ami-1",
        "running", "ip-10-2-0-8.ec2.internal", 0.5, Map.of(), Instant.parse("2026-01-05T10:00:00Z"), "subnet-a", List.of("sg-node"));
    SimulatedInstance simulated = new SimulatedInstance(instance, "10.2.0.8", Map.of(), List.of(), false, false);

    Map<String, String> labels = SimulatedNodes.node(simulated, type, Optional.empty(), "us-east-1",
        cloud.network().zoneId("us-east-1a")).getMetadata().getLabels();

    assertEquals("use1-az1", labels.get(WellKnown.ZONE_ID_LABEL));
    assertEquals(List.of("nitro", "intel", "t4", "nvidia", "1", "16384", "125", "false", "true"), Stream.of(
        WellKnown.INSTANCE_HYPERVISOR_LABEL, WellKnown.INSTANCE_CPU_MANUFACTURER_LABEL, WellKnown.INSTANCE_GPU_NAME_LABEL,
        WellKnown.INSTANCE_GPU_MANUFACTURER_LABEL, WellKnown.INSTANCE_GPU_COUNT_LABEL, WellKnown.INSTANCE_GPU_MEMORY_LABEL,
        WellKnown.INSTANCE_LOCAL_NVME_LABEL, WellKnown.INSTANCE_CAPABILITY_FLEX_LABEL, WellKnown.INSTANCE_ENCRYPTION_IN_TRANSIT_LABEL)
        .map(labels::get).toList());
    assertTrue(labels.keySet().stream().noneMatch(k -> k.contains("-accelerator-")), labels.toString());
  }

  @Test
  void buildsTheNodeAKubeletWouldRegister() {
    InstanceType type = CATALOG.find("m6g.xlarge").orElseThrow();
    Image image = AmiCatalog.load("1.34").images().stream()
        .filter(i -> i.name().equals("amazon-eks-node-al2023-arm64-standard-1.34-v20251103")).findFirst().orElseThrow();
    Instance instance = new Instance("i-0abc", "aws:///us-east-1c/i-0abc", type.name(), "us-east-1c", "spot", image.id(),
        "running", "ip-10-2-0-7.ec2.internal", 0.05, Map.of(), Instant.parse("2026-01-05T10:00:00Z"), "subnet-c", List.of("sg-node"));
    SimulatedInstance simulated = new SimulatedInstance(instance, "10.2.0.7",
        Map.of(WellKnown.NODEPOOL_LABEL, "default", WellKnown.CAPACITY_TYPE_LABEL, "spot"), List.of(WellKnown.UNREGISTERED_TAINT), false, false);

    Node node = SimulatedNodes.node(simulated, type, Optional.of(image), "us-east-1", "use1-az1");

    assertEquals("ip-10-2-0-7.ec2.internal", node.getMetadata().getName());
    assertEquals("fake", node.getMetadata().getAnnotations().get("kwok.x-k8s.io/node"));
    Map<String, String> labels = node.getMetadata().getLabels();
    assertEquals("default", labels.get(WellKnown.NODEPOOL_LABEL));
    assertEquals("arm64", labels.get(WellKnown.ARCH_LABEL));
    assertEquals("ip-10-2-0-7.ec2.internal", labels.get(WellKnown.HOSTNAME_LABEL));
    assertEquals("m6g.xlarge", labels.get(WellKnown.INSTANCE_TYPE_LABEL));
    assertEquals("us-east-1c", labels.get(WellKnown.ZONE_LABEL));
    assertEquals("us-east-1", labels.get(WellKnown.REGION_LABEL));
    assertEquals("m", labels.get(WellKnown.INSTANCE_CATEGORY_LABEL));
    assertEquals("m6g", labels.get(WellKnown.INSTANCE_FAMILY_LABEL));
    assertEquals("6", labels.get(WellKnown.INSTANCE_GENERATION_LABEL));
    assertEquals("xlarge", labels.get(WellKnown.INSTANCE_SIZE_LABEL));
    assertEquals("4", labels.get(WellKnown.INSTANCE_CPU_LABEL));
    assertEquals("16384", labels.get(WellKnown.INSTANCE_MEMORY_LABEL));
    assertEquals("aws:///us-east-1c/i-0abc", node.getSpec().getProviderID());
    assertEquals(1, node.getSpec().getTaints().size());
    assertEquals("karpenter.sh/unregistered", node.getSpec().getTaints().getFirst().getKey());
    assertEquals("NoExecute", node.getSpec().getTaints().getFirst().getEffect());

    Map<String, Quantity> capacity = node.getStatus().getCapacity();
    assertEquals(new Quantity("4"), capacity.get("cpu"));
    assertEquals(new Quantity((16384 - 1229) + "Mi"), capacity.get("memory"));
    assertEquals(new Quantity("58"), capacity.get("pods")); // 4 ENIs x (15 - 1) + 2
    Map<String, Quantity> allocatable = node.getStatus().getAllocatable();
    assertEquals(new Quantity("3920m"), allocatable.get("cpu")); // 4000 - (60 + 10 + 10)
    assertEquals(new Quantity((16384 - 1229 - (11 * 58 + 255) - 100) + "Mi"), allocatable.get("memory"));
    assertEquals(image.kubeletVersion(), node.getStatus().getNodeInfo().getKubeletVersion());
    assertEquals("arm64", node.getStatus().getNodeInfo().getArchitecture());
    assertEquals("linux", node.getStatus().getNodeInfo().getOperatingSystem());
  }

  @Test
  void aNodeOfAWindowsImageRegistersAsWindowsWithItsBuildAnd110Pods() {
    InstanceType type = CATALOG.find("m5.xlarge").orElseThrow();
    Image image = AmiCatalog.load("1.34").images().stream()
        .filter(i -> i.name().equals("Windows_Server-2022-English-Core-EKS_Optimized-1.34-2025.11.03")).findFirst().orElseThrow();
    Instance instance = new Instance("i-0win", "aws:///us-east-1a/i-0win", type.name(), "us-east-1a", "on-demand", image.id(),
        "running", "ip-10-2-0-9.ec2.internal", 0.19, Map.of(), Instant.parse("2026-01-05T10:00:00Z"), "subnet-a", List.of("sg-node"));
    SimulatedInstance simulated = new SimulatedInstance(instance, "10.2.0.9", Map.of(WellKnown.OS_LABEL, "windows"), List.of(), false, false);

    Node node = SimulatedNodes.node(simulated, type, Optional.of(image), "us-east-1", "use1-az1");

    Map<String, String> labels = node.getMetadata().getLabels();
    assertEquals("windows", labels.get(WellKnown.OS_LABEL));
    assertEquals("10.0.20348", labels.get(WellKnown.WINDOWS_BUILD_LABEL));
    assertEquals("windows", node.getStatus().getNodeInfo().getOperatingSystem());
    assertEquals("Windows Server 2022 Datacenter", node.getStatus().getNodeInfo().getOsImage());
    assertEquals(image.kubeletVersion(), node.getStatus().getNodeInfo().getKubeletVersion());
    assertEquals(new Quantity("110"), node.getStatus().getCapacity().get("pods"), "Windows: 110 pods, not the ENI limit");
    assertEquals(new Quantity((16384 - 1229 - (11 * 110 + 255) - 100) + "Mi"), node.getStatus().getAllocatable().get("memory"));
    assertEquals(Optional.empty(), SimulatedNodes.windowsFamily("amazon-eks-node-1.34-v20251103"));
  }

  @Test
  void reservesCpuLikeEks() {
    assertEquals(60, NodeResources.reservedCpuMillis(1000));
    assertEquals(70, NodeResources.reservedCpuMillis(2000));
    assertEquals(80, NodeResources.reservedCpuMillis(4000));
    assertEquals(90, NodeResources.reservedCpuMillis(8000));
  }
}
