package dev.farrier.activities.cloud.simulated;

import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.Instance;
import dev.farrier.activities.cloud.InstanceType;
import dev.farrier.activities.cloud.InstanceTypeName;
import dev.farrier.activities.cloud.InstanceTypeLabels;
import dev.farrier.activities.cloud.WindowsFamily;
import dev.farrier.activities.cloud.aws.EphemeralStorage;
import dev.farrier.model.Taint;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeSystemInfo;
import io.fabric8.kubernetes.api.model.NodeSystemInfoBuilder;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The Node object a real kubelet would register for an instance, from its bootstrap and the catalogues. A node of a
 * Windows Server image ({@code Windows_Server-<year>-...}) registers as Windows: os {@code windows}, its
 * {@code node.kubernetes.io/windows-build} (which the kubelet sets on Windows), 110 max pods and a Windows
 * {@code nodeInfo}.
 */
final class SimulatedNodes {
  /** kwok manages Nodes with this annotation (the local stack starts it with that selector) and keeps them Ready. */
  static final String KWOK_ANNOTATION = "kwok.x-k8s.io/node";
  private static final String LINUX = "linux";
  private static final String WINDOWS_IMAGE_PREFIX = "Windows_Server-";

  private SimulatedNodes() {}

  /** @param zoneId the id of the instance's zone, which EKS's cloud controller labels a node with */
  static Node node(SimulatedInstance simulated, InstanceType type, Optional<Image> image, String region, String zoneId) {
    Instance instance = simulated.instance();
    String name = instance.privateDnsName();
    InstanceTypeName typeName = InstanceTypeName.parse(type.name());
    Optional<WindowsFamily> windows = image.flatMap(i -> windowsFamily(i.name()));
    long pods = windows.isPresent() ? WindowsFamily.DEFAULT_MAX_PODS : type.eniMaxPods();
    Map<String, String> labels = new HashMap<>(simulated.nodeLabels());
    labels.put(WellKnown.ARCH_LABEL, type.kubernetesArch());
    labels.putAll(windows.map(WindowsFamily::nodeLabels).orElse(Map.of(WellKnown.OS_LABEL, LINUX)));
    labels.put(WellKnown.HOSTNAME_LABEL, name);
    labels.put(WellKnown.INSTANCE_TYPE_LABEL, type.name());
    labels.put(WellKnown.ZONE_LABEL, instance.zone());
    labels.put(WellKnown.REGION_LABEL, region);
    labels.put(WellKnown.CAPACITY_TYPE_LABEL, instance.capacityType());
    labels.putAll(InstanceTypeLabels.of(type));
    labels.put(WellKnown.INSTANCE_CATEGORY_LABEL, typeName.category());
    labels.put(WellKnown.INSTANCE_GENERATION_LABEL, typeName.generation());
    labels.put(WellKnown.ZONE_ID_LABEL, zoneId);
    return new NodeBuilder()
        .withNewMetadata()
            .withName(name)
            .withLabels(labels)
            .withAnnotations(Map.of(KWOK_ANNOTATION, "fake"))
        .endMetadata()
        .withNewSpec()
            .withProviderID(instance.providerId())
            .withTaints(simulated.nodeTaints().stream().map(SimulatedNodes::taint).toList())
        .endSpec()
        .withNewStatus()
            .withCapacity(NodeResources.capacity(type, ephemeralStorage(simulated, type), pods))
            .withAllocatable(NodeResources.allocatable(type, ephemeralStorage(simulated, type), pods))
            .withAddresses(List.of(
                new NodeAddress(simulated.privateIp(), "InternalIP"),
                new NodeAddress(name, "InternalDNS"),
                new NodeAddress(name, "Hostname")))
            .withNodeInfo(windows.map(w -> windowsNodeInfo(instance, type, image.get(), w)).orElseGet(() -> nodeInfo(instance, type, image)))
        .endStatus()
        .build();
  }

  /**
   * The disk kubelet reports: the instance store when its user data made that one RAID0 array, else the default root
   * volume (a simulated node does not read its class's block devices).
   */
  private static long ephemeralStorage(SimulatedInstance simulated, InstanceType type) {
    return new EphemeralStorage(EphemeralStorage.DEFAULT_BYTES, simulated.instanceStoreRaid0()).bytes(type);
  }

  private static io.fabric8.kubernetes.api.model.Taint taint(Taint t) {
    return new TaintBuilder()
        .withKey(t.key())
        .withValue(t.value() == null || t.value().isEmpty() ? null : t.value())
        .withEffect(t.effect())
        .build();
  }

  /** The Windows family of an image named as AWS names its Windows Server images, if it is one. */
  static Optional<WindowsFamily> windowsFamily(String imageName) {
    if (imageName == null || !imageName.startsWith(WINDOWS_IMAGE_PREFIX)) {
      return Optional.empty();
    }
    String rest = imageName.substring(WINDOWS_IMAGE_PREFIX.length());
    return rest.length() < 4 ? Optional.empty() : WindowsFamily.of("windows" + rest.substring(0, 4));
  }

  private static NodeSystemInfo nodeInfo(Instance instance, InstanceType type, Optional<Image> image) {
    String imageName = image.map(Image::name).orElse("");
    return systemInfo(instance, type, image)
        .withOperatingSystem(LINUX)
        .withOsImage(osImage(imageName))
        .withKernelVersion(imageName.startsWith("bottlerocket") ? "6.12.46" : imageName.contains("al2023") ? "6.12.46-66.121.amzn2023." + type.arch() : "5.10.245-241.978.amzn2." + type.arch())
        .withContainerRuntimeVersion("containerd://2.1.4")
        .build();
  }

  /** As a Windows kubelet reports itself: the build as the kernel version, containerd 1.7 (what EKS Windows images run). */
  private static NodeSystemInfo windowsNodeInfo(Instance instance, InstanceType type, Image image, WindowsFamily windows) {
    return systemInfo(instance, type, Optional.of(image))
        .withOperatingSystem(WindowsFamily.OS)
        .withOsImage("Windows Server " + windows.year() + " Datacenter")
        .withKernelVersion(windows.build() + ".0")
        .withContainerRuntimeVersion("containerd://1.7.27")
        .build();
  }

  private static NodeSystemInfoBuilder systemInfo(Instance instance, InstanceType type, Optional<Image> image) {
    UUID machine = UUID.nameUUIDFromBytes(instance.id().getBytes(StandardCharsets.UTF_8));
    UUID boot = UUID.nameUUIDFromBytes((instance.id() + "/" + instance.launchTime()).getBytes(StandardCharsets.UTF_8));
    return new NodeSystemInfoBuilder()
        .withArchitecture(type.kubernetesArch())
        .withKubeletVersion(image.map(Image::kubeletVersion).orElse("v0.0.0-unknown"))
        .withMachineID(machine.toString().replace("-", ""))
        .withSystemUUID("ec2" + machine.toString().substring(3))
        .withBootID(boot.toString());
  }

  private static String osImage(String imageName) {
    if (imageName.startsWith("bottlerocket")) {
      return "Bottlerocket OS";
    }
    return imageName.contains("al2023") ? "Amazon Linux 2023" : "Amazon Linux 2";
  }
}
