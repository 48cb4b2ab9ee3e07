package dev.farrier.activities.crd;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code spec} of an EC2NodeClass. Exactly one of {@code role} and {@code instanceProfile} is set; {@code amiFamily}
 * may be omitted only with an alias term.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record EC2NodeClassSpec(
    String amiFamily,
    List<AmiSelectorTerm> amiSelectorTerms,
    List<SubnetSelectorTerm> subnetSelectorTerms,
    List<SecurityGroupSelectorTerm> securityGroupSelectorTerms,
    String role,
    String instanceProfile,
    KubeletConfiguration kubelet,
    MetadataOptions metadataOptions,
    List<BlockDeviceMapping> blockDeviceMappings,
    String instanceStorePolicy,
    String userData,
    Map<String, String> tags,
    Boolean associatePublicIPAddress,
    Boolean detailedMonitoring,
    List<CapacityReservationSelectorTerm> capacityReservationSelectorTerms,
    ConnectionTracking connectionTracking,
    Integer ipPrefixCount,
    CpuOptions cpuOptions,
    String context) {
  /** A class that leaves the network interface's connection tracking and prefixes, CPU options and fleet context to EC2. */
  public EC2NodeClassSpec(String amiFamily, List<AmiSelectorTerm> amiSelectorTerms, List<SubnetSelectorTerm> subnetSelectorTerms,
      List<SecurityGroupSelectorTerm> securityGroupSelectorTerms, String role, String instanceProfile, KubeletConfiguration kubelet,
      MetadataOptions metadataOptions, List<BlockDeviceMapping> blockDeviceMappings, String instanceStorePolicy, String userData,
      Map<String, String> tags, Boolean associatePublicIPAddress, Boolean detailedMonitoring,
      List<CapacityReservationSelectorTerm> capacityReservationSelectorTerms) {
    this(amiFamily, amiSelectorTerms, subnetSelectorTerms, securityGroupSelectorTerms, role, instanceProfile, kubelet, metadataOptions,
        blockDeviceMappings, instanceStorePolicy, userData, tags, associatePublicIPAddress, detailedMonitoring,
        capacityReservationSelectorTerms, null, null, null, null);
  }

  /** A class that selects no capacity reservation. */
  public EC2NodeClassSpec(String amiFamily, List<AmiSelectorTerm> amiSelectorTerms, List<SubnetSelectorTerm> subnetSelectorTerms,
      List<SecurityGroupSelectorTerm> securityGroupSelectorTerms, String role, String instanceProfile, KubeletConfiguration kubelet,
      MetadataOptions metadataOptions, List<BlockDeviceMapping> blockDeviceMappings, String instanceStorePolicy, String userData,
      Map<String, String> tags, Boolean associatePublicIPAddress, Boolean detailedMonitoring) {
    this(amiFamily, amiSelectorTerms, subnetSelectorTerms, securityGroupSelectorTerms, role, instanceProfile, kubelet, metadataOptions,
        blockDeviceMappings, instanceStorePolicy, userData, tags, associatePublicIPAddress, detailedMonitoring,
        (List<CapacityReservationSelectorTerm>) null);
  }

  public List<CapacityReservationSelectorTerm> capacityReservationSelectorTermsOrEmpty() {
    return capacityReservationSelectorTerms == null ? List.of() : capacityReservationSelectorTerms;
  }

  /**
   * {@code amiFamily}, or the family an alias term names ({@code al2023@latest} -> AL2023, {@code windows2022@latest} -> Windows2022), as Karpenter v1 derives it
   * ({@code EC2NodeClass.AMIFamily()}); Custom when neither says.
   */
  public String resolvedAmiFamily() {
    if (amiFamily != null && !amiFamily.isBlank()) {
      return amiFamily;
    }
    return amiSelectorTermsOrEmpty().stream().filter(t -> t.alias() != null).findFirst()
        .map(t -> switch (t.alias().split("@")[0].toLowerCase(Locale.ROOT)) {
          case "al2023" -> "AL2023";
          case "al2" -> "AL2";
          case "bottlerocket" -> "Bottlerocket";
          case "windows2019", "windows2022", "windows2025" -> "Windows" + t.alias().substring("windows".length(), t.alias().indexOf('@'));
          default -> t.alias().split("@")[0];
        })
        .orElse("Custom");
  }

  public List<AmiSelectorTerm> amiSelectorTermsOrEmpty() {
    return amiSelectorTerms == null ? List.of() : amiSelectorTerms;
  }

  public MetadataOptions metadataOptionsOrDefault() {
    return metadataOptions == null ? MetadataOptions.DEFAULT : metadataOptions;
  }

  public Map<String, String> tagsOrEmpty() {
    return tags == null ? Map.of() : tags;
  }
}
