package dev.farrier.activities.cloud.aws;

import dev.farrier.activities.cloud.CapacityReservation;
import software.amazon.awssdk.services.ec2.model.CapacityReservationPreference;
import software.amazon.awssdk.services.ec2.model.CapacityReservationTarget;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateCapacityReservationSpecificationRequest;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateInstanceMarketOptionsRequest;
import software.amazon.awssdk.services.ec2.model.MarketType;
import dev.farrier.activities.crd.BlockDeviceMapping;
import dev.farrier.activities.crd.ConnectionTracking;
import dev.farrier.activities.crd.CpuOptions;
import dev.farrier.activities.crd.MetadataOptions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.ec2.model.ConnectionTrackingSpecificationRequest;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateCpuOptionsRequest;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateIamInstanceProfileSpecificationRequest;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateInstanceMetadataOptionsRequest;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateInstanceNetworkInterfaceSpecificationRequest;
import software.amazon.awssdk.services.ec2.model.LaunchTemplatesMonitoringRequest;
import software.amazon.awssdk.services.ec2.model.RequestLaunchTemplateData;

/**
 * Everything a launch template holds: one template per distinct value, named by a hash of it
 * ({@code farrier/<cluster>/<hash>}), so launches with the same image, security groups, user data, metadata
 * options, block devices, tags, instance profile, public IP, monitoring, connection tracking, IPv4 prefixes and CPU
 * options share a template, and a change makes a new one.
 *
 * @param userData                 plain text (encoded to base64 for EC2)
 * @param tags                     the EC2NodeClass's tags plus Farrier's ownership tags (on the template itself)
 * @param associatePublicIpAddress set on the primary network interface, which then carries the security groups
 *                                 (EC2 takes them in one place only); null = the subnet decides
 * @param detailedMonitoring       {@code Monitoring.Enabled}; null = left out, EC2's basic monitoring
 * @param capacityReservationId    a reserved launch's reservation: {@code CapacityReservationSpecification} targets it
 *                                 with preference {@code capacity-reservations-only} (karpenter-provider-aws's
 *                                 launch template for capacity type reserved); null for any other launch
 * @param capacityReservationType  {@code capacity-block} adds {@code InstanceMarketOptions.MarketType=capacity-block}
 * @param connectionTracking       the primary network interface's {@code ConnectionTrackingSpecification}; null = EC2's
 * @param ipPrefixCount            the primary network interface's {@code Ipv4PrefixCount}; null = none asked for. The
 *                                 template has a primary network interface only when one of these two or
 *                                 {@code associatePublicIpAddress} is set
 * @param cpuOptions               {@code CpuOptions.NestedVirtualization}; null = left out, EC2's default
 */
public record LaunchTemplateSpec(
    String cluster,
    String imageId,
    List<String> securityGroupIds,
    String userData,
    MetadataOptions metadataOptions,
    List<BlockDeviceMapping> blockDevices,
    Map<String, String> tags,
    String instanceProfile,
    Boolean associatePublicIpAddress,
    Boolean detailedMonitoring,
    String capacityReservationId,
    String capacityReservationType,
    ConnectionTracking connectionTracking,
    Integer ipPrefixCount,
    CpuOptions cpuOptions) {
  public static final String NAME_PREFIX = "farrier/";

  /** A template for spot or on-demand launches (no capacity reservation). */
  public LaunchTemplateSpec(String cluster, String imageId, List<String> securityGroupIds, String userData, MetadataOptions metadataOptions,
      List<BlockDeviceMapping> blockDevices, Map<String, String> tags, String instanceProfile, Boolean associatePublicIpAddress,
      Boolean detailedMonitoring) {
    this(cluster, imageId, securityGroupIds, userData, metadataOptions, blockDevices, tags, instanceProfile, associatePublicIpAddress,
        detailedMonitoring, null, null);
  }

  /** A template leaving the network interface's connection tracking and prefixes and the CPU options to EC2. */
  public LaunchTemplateSpec(String cluster, String imageId, List<String> securityGroupIds, String userData, MetadataOptions metadataOptions,
      List<BlockDeviceMapping> blockDevices, Map<String, String> tags, String instanceProfile, Boolean associatePublicIpAddress,
      Boolean detailedMonitoring, String capacityReservationId, String capacityReservationType) {
    this(cluster, imageId, securityGroupIds, userData, metadataOptions, blockDevices, tags, instanceProfile, associatePublicIpAddress,
        detailedMonitoring, capacityReservationId, capacityReservationType, null, null, null);
  }

  public LaunchTemplateSpec {
    securityGroupIds = securityGroupIds.stream().sorted().distinct().toList();
    blockDevices = List.copyOf(blockDevices);
    tags = new TreeMap<>(tags);
  }

  /** Deterministic: the same spec always gets the same name, in every worker. */
  public String name() {
    String canonical = String.join("\n", cluster, imageId, String.join(",", securityGroupIds), userData,
        String.valueOf(metadataOptions), String.valueOf(blockDevices), String.valueOf(tags), String.valueOf(instanceProfile));
    // Appended only when set, so the templates of classes that set neither keep the names they had.
    if (associatePublicIpAddress != null || detailedMonitoring != null) {
      canonical += "\npublicIp=" + associatePublicIpAddress + "\nmonitoring=" + detailedMonitoring;
    }
    if (capacityReservationId != null) {
      canonical += "\ncapacityReservation=" + capacityReservationId + "/" + capacityReservationType;
    }
    if (connectionTracking != null || ipPrefixCount != null || cpuOptions != null) {
      canonical += "\nconnectionTracking=" + connectionTracking + "\nipPrefixCount=" + ipPrefixCount + "\ncpuOptions=" + cpuOptions;
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
      return nameOf(cluster, HexFormat.of().formatHex(digest).substring(0, 20));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK ships SHA-256", e);
    }
  }

  /** The name of this cluster's template with {@code hash}. */
  static String nameOf(String cluster, String hash) {
    return NAME_PREFIX + cluster + "/" + hash;
  }

  /** The hash part of a template's name (what an instance's template tag lists, to stay short). */
  static String hashOf(String name) {
    return name.substring(name.lastIndexOf('/') + 1);
  }

  RequestLaunchTemplateData data() {
    RequestLaunchTemplateData.Builder data = RequestLaunchTemplateData.builder()
        .imageId(imageId)
        .userData(Base64.getEncoder().encodeToString(userData.getBytes(StandardCharsets.UTF_8)))
        .metadataOptions(LaunchTemplateInstanceMetadataOptionsRequest.builder()
            .httpEndpoint(metadataOptions.httpEndpoint())
            .httpProtocolIpv6(metadataOptions.httpProtocolIPv6())
            .httpPutResponseHopLimit(metadataOptions.httpPutResponseHopLimit().intValue())
            .httpTokens(metadataOptions.httpTokens())
            .build())
        .blockDeviceMappings(blockDevices.stream().map(BlockDevices::toRequest).toList());
    if (associatePublicIpAddress == null && connectionTracking == null && ipPrefixCount == null) {
      data.securityGroupIds(securityGroupIds);
    } else {
      data.networkInterfaces(primaryNetworkInterface());
    }
    if (cpuOptions != null && cpuOptions.nestedVirtualization() != null) {
      data.cpuOptions(LaunchTemplateCpuOptionsRequest.builder().nestedVirtualization(cpuOptions.nestedVirtualization()).build());
    }
    if (detailedMonitoring != null) {
      data.monitoring(LaunchTemplatesMonitoringRequest.builder().enabled(detailedMonitoring).build());
    }
    if (capacityReservationId != null) {
      data.capacityReservationSpecification(LaunchTemplateCapacityReservationSpecificationRequest.builder()
          .capacityReservationPreference(CapacityReservationPreference.CAPACITY_RESERVATIONS_ONLY)
          .capacityReservationTarget(CapacityReservationTarget.builder().capacityReservationId(capacityReservationId).build()).build());
      if (CapacityReservation.CAPACITY_BLOCK.equals(capacityReservationType)) {
        data.instanceMarketOptions(LaunchTemplateInstanceMarketOptionsRequest.builder().marketType(MarketType.CAPACITY_BLOCK).build());
      }
    }
    if (instanceProfile != null) {
      data.iamInstanceProfile(LaunchTemplateIamInstanceProfileSpecificationRequest.builder().name(instanceProfile).build());
    }
    return data.build();
  }

  /** Device 0 with the security groups (EC2 takes them here once there is an interface) and what the class set on it. */
  private LaunchTemplateInstanceNetworkInterfaceSpecificationRequest primaryNetworkInterface() {
    var primary = LaunchTemplateInstanceNetworkInterfaceSpecificationRequest.builder().deviceIndex(0).groups(securityGroupIds)
        .associatePublicIpAddress(associatePublicIpAddress).ipv4PrefixCount(ipPrefixCount);
    if (connectionTracking != null) {
      primary.connectionTrackingSpecification(ConnectionTrackingSpecificationRequest.builder()
          .tcpEstablishedTimeout(connectionTracking.tcpEstablishedTimeout()).udpStreamTimeout(connectionTracking.udpStreamTimeout())
          .udpTimeout(connectionTracking.udpTimeout()).build());
    }
    return primary.build();
  }

  /** The EC2NodeClass's metadata options with Karpenter v1's default for every field left out. */
  static MetadataOptions withDefaults(MetadataOptions options) {
    MetadataOptions d = MetadataOptions.DEFAULT;
    if (options == null) {
      return d;
    }
    return new MetadataOptions(
        options.httpEndpoint() == null ? d.httpEndpoint() : options.httpEndpoint(),
        options.httpProtocolIPv6() == null ? d.httpProtocolIPv6() : options.httpProtocolIPv6(),
        options.httpPutResponseHopLimit() == null ? d.httpPutResponseHopLimit() : options.httpPutResponseHopLimit(),
        options.httpTokens() == null ? d.httpTokens() : options.httpTokens());
  }
}
