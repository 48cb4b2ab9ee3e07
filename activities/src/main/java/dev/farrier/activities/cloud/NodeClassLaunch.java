package dev.farrier.activities.cloud;

import dev.farrier.activities.crd.BlockDeviceMapping;
import dev.farrier.activities.crd.ConnectionTracking;
import dev.farrier.activities.crd.CpuOptions;
import dev.farrier.activities.crd.KubeletConfiguration;
import dev.farrier.activities.crd.MetadataOptions;
import dev.farrier.activities.crd.ResolvedSubnet;
import dev.farrier.planner.KubeletSettings;
import dev.farrier.planner.NodeKubelet;
import java.util.List;
import java.util.Map;

/**
 * What an EC2NodeClass contributes to a launch: its resolved subnets, security groups and instance profile (from
 * {@code status}) and how the node boots (from {@code spec}). {@link #NONE} means "no node class constraints", which
 * only the simulated cloud accepts.
 *
 * @param amiFamily          AL2023, AL2, Bottlerocket or Custom (null = derived from the alias by the caller)
 * @param subnets            the subnets to launch into; their zones bound the launch's zones
 * @param userData           the user's {@code spec.userData}, merged into (or, for Custom, used as) the node's user data
 * @param metadataOptions    null = Karpenter's defaults
 * @param blockDeviceMappings null or empty = the family's defaults
 * @param tags               {@code spec.tags}, put on the launch template (instance tags come with the request)
 * @param kubeletSettings    {@code kubelet} as the planner reads it, so the launch tells each node the max pods and
 *                           kube-reserved the planner assumed for its instance type ({@link NodeKubelet})
 * @param instanceStorePolicy RAID0 (the node makes its instance-store disks its ephemeral storage), or null
 * @param associatePublicIPAddress null = the subnet's {@code MapPublicIpOnLaunch}
 * @param detailedMonitoring null = EC2's basic monitoring
 * @param connectionTracking the primary network interface's idle timeouts; null = EC2's
 * @param ipPrefixCount      IPv4 prefixes assigned to the primary network interface; null = none asked for
 * @param cpuOptions         {@code nestedVirtualization}; null = EC2's default
 * @param context            the EC2 Fleet {@code Context} of the launch's CreateFleet; null = none
 */
public record NodeClassLaunch(
    String amiFamily,
    List<ResolvedSubnet> subnets,
    List<String> securityGroupIds,
    String instanceProfile,
    String userData,
    KubeletConfiguration kubelet,
    MetadataOptions metadataOptions,
    List<BlockDeviceMapping> blockDeviceMappings,
    Map<String, String> tags,
    KubeletSettings kubeletSettings,
    String instanceStorePolicy,
    Boolean associatePublicIPAddress,
    Boolean detailedMonitoring,
    ConnectionTracking connectionTracking,
    Integer ipPrefixCount,
    CpuOptions cpuOptions,
    String context) {
  public static final NodeClassLaunch NONE = new NodeClassLaunch(null, List.of(), List.of(), null, null, null, null, List.of(), Map.of());

  /**
   * With the planner's defaults for the kubelet (a node class without {@code kubelet}), no instance-store policy and
   * the subnet's and EC2's defaults for a public IP and monitoring.
   */
  public NodeClassLaunch(String amiFamily, List<ResolvedSubnet> subnets, List<String> securityGroupIds, String instanceProfile,
      String userData, KubeletConfiguration kubelet, MetadataOptions metadataOptions, List<BlockDeviceMapping> blockDeviceMappings,
      Map<String, String> tags) {
    this(amiFamily, subnets, securityGroupIds, instanceProfile, userData, kubelet, metadataOptions, blockDeviceMappings, tags,
        KubeletSettings.DEFAULTS, null, null, null);
  }

  /** With EC2's defaults for the network interface's connection tracking and prefixes, the CPU options and no fleet context. */
  public NodeClassLaunch(String amiFamily, List<ResolvedSubnet> subnets, List<String> securityGroupIds, String instanceProfile,
      String userData, KubeletConfiguration kubelet, MetadataOptions metadataOptions, List<BlockDeviceMapping> blockDeviceMappings,
      Map<String, String> tags, KubeletSettings kubeletSettings, String instanceStorePolicy, Boolean associatePublicIPAddress,
      Boolean detailedMonitoring) {
    this(amiFamily, subnets, securityGroupIds, instanceProfile, userData, kubelet, metadataOptions, blockDeviceMappings, tags,
        kubeletSettings, instanceStorePolicy, associatePublicIPAddress, detailedMonitoring, null, null, null, null);
  }

  public NodeClassLaunch {
    subnets = subnets == null ? List.of() : List.copyOf(subnets);
    securityGroupIds = securityGroupIds == null ? List.of() : List.copyOf(securityGroupIds);
    blockDeviceMappings = blockDeviceMappings == null ? List.of() : List.copyOf(blockDeviceMappings);
    tags = tags == null ? Map.of() : Map.copyOf(tags);
    kubeletSettings = kubeletSettings == null ? KubeletSettings.DEFAULTS : kubeletSettings;
  }

  /** The zones of the subnets, or empty when there are no subnets (any zone). */
  public List<String> subnetZones() {
    return subnets.stream().map(ResolvedSubnet::zone).distinct().sorted().toList();
  }
}
