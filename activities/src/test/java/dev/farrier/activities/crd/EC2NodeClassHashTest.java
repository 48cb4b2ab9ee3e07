package dev.farrier.activities.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which EC2NodeClass fields drift its nodes through the hash, as karpenter-provider-aws's {@code EC2NodeClass.Hash()}:
 * the selector terms do not (they drift through what they resolve to), nor the literal {@code amiFamily} (the family
 * it resolves to does), nor {@code ipPrefixCount} (tagged {@code hash:"ignore"}); every other field does.
 */
class EC2NodeClassHashTest {
  private static final EC2NodeClass EXAMPLE = Manifests.read(Manifests.EXAMPLES.resolve("ec2nodeclass.yaml"), EC2NodeClass.class);
  private static final BlockDeviceMapping ROOT = new BlockDeviceMapping("/dev/xvda",
      new BlockDevice(true, true, null, null, null, null, "100Gi", "gp3"), true);
  private static final BlockDeviceMapping DATA = new BlockDeviceMapping("/dev/xvdb",
      new BlockDevice(true, true, null, null, null, null, "200Gi", "gp3"), null);

  private static String hash(UnaryOperator<EC2NodeClassSpec> change) {
    var nodeClass = Manifests.read(Manifests.EXAMPLES.resolve("ec2nodeclass.yaml"), EC2NodeClass.class);
    nodeClass.setSpec(change.apply(nodeClass.getSpec()));
    return EC2NodeClassHash.of(nodeClass);
  }

  private static EC2NodeClassSpec spec(EC2NodeClassSpec s, String amiFamily, List<AmiSelectorTerm> ami, List<SubnetSelectorTerm> subnets,
      List<SecurityGroupSelectorTerm> groups) {
    return new EC2NodeClassSpec(amiFamily, ami, subnets, groups, s.role(), s.instanceProfile(), s.kubelet(), s.metadataOptions(),
        s.blockDeviceMappings(), s.instanceStorePolicy(), s.userData(), s.tags(), s.associatePublicIPAddress(), s.detailedMonitoring());
  }

  private static EC2NodeClassSpec launch(EC2NodeClassSpec s, String role, String instanceProfile, KubeletConfiguration kubelet,
      MetadataOptions metadata, List<BlockDeviceMapping> devices, String storePolicy, String userData, Map<String, String> tags,
      Boolean publicIp, Boolean monitoring) {
    return new EC2NodeClassSpec(s.amiFamily(), s.amiSelectorTerms(), s.subnetSelectorTerms(), s.securityGroupSelectorTerms(), role,
        instanceProfile, kubelet, metadata, devices, storePolicy, userData, tags, publicIp, monitoring);
  }

  private static EC2NodeClassSpec knobs(EC2NodeClassSpec s, List<BlockDeviceMapping> devices, ConnectionTracking connectionTracking,
      Integer ipPrefixCount, CpuOptions cpuOptions, String context) {
    return new EC2NodeClassSpec(s.amiFamily(), s.amiSelectorTerms(), s.subnetSelectorTerms(), s.securityGroupSelectorTerms(), s.role(),
        s.instanceProfile(), s.kubelet(), s.metadataOptions(), devices, s.instanceStorePolicy(), s.userData(), s.tags(),
        s.associatePublicIPAddress(), s.detailedMonitoring(), s.capacityReservationSelectorTerms(), connectionTracking, ipPrefixCount,
        cpuOptions, context);
  }

  @Test
  void isStableAcrossReadsAndPinned() {
    assertEquals(EC2NodeClassHash.of(EXAMPLE), hash(s -> s));
    // Pinned: if this changes, every node Farrier launched drifts; bump EC2NodeClassHash.VERSION with it.
    assertEquals("{\"amiFamily\":\"AL2\",\"metadataOptions\":{\"httpEndpoint\":\"enabled\",\"httpProtocolIPv6\":\"disabled\","
            + "\"httpPutResponseHopLimit\":1,\"httpTokens\":\"required\"},\"role\":\"<<KARPENTER_NODE_IAM_ROLE_NAME>>\","
            + "\"tags\":{\"KubernetesVersion\":\"1.29\"}}",
        EC2NodeClassHash.canonical(EXAMPLE));
  }

  @Test
  void selectorTermsAreNotHashedTheyDriftThroughWhatTheyResolveTo() {
    assertEquals(hash(s -> s), hash(s -> spec(s, s.amiFamily(), List.of(new AmiSelectorTerm(null, "ami-other", null, null, null)),
        List.of(new SubnetSelectorTerm("subnet-a", null)), List.of(new SecurityGroupSelectorTerm("sg-a", null, null)))));
  }

  @Test
  void theResolvedFamilyIsHashedNotTheField() {
    var alias = List.of(new AmiSelectorTerm("al2023@latest", null, null, null, null));
    assertEquals(hash(s -> spec(s, null, alias, s.subnetSelectorTerms(), s.securityGroupSelectorTerms())),
        hash(s -> spec(s, "AL2023", alias, s.subnetSelectorTerms(), s.securityGroupSelectorTerms())),
        "amiFamily left out with an al2023 alias is AL2023");
    assertNotEquals(hash(s -> s), hash(s -> spec(s, "Bottlerocket", s.amiSelectorTerms(), s.subnetSelectorTerms(),
        s.securityGroupSelectorTerms())));
  }

  static Stream<Arguments> hashedFields() {
    return Stream.<Arguments>of(
        Arguments.of("role", (UnaryOperator<EC2NodeClassSpec>) s -> launch(s, "OtherRole", null, s.kubelet(), s.metadataOptions(),
            s.blockDeviceMappings(), s.instanceStorePolicy(), s.userData(), s.tags(), null, null)),
        Arguments.of("instanceProfile", (UnaryOperator<EC2NodeClassSpec>) s -> launch(s, null, "profile", s.kubelet(),
            s.metadataOptions(), s.blockDeviceMappings(), s.instanceStorePolicy(), s.userData(), s.tags(), null, null)),
        Arguments.of("kubelet", (UnaryOperator<EC2NodeClassSpec>) s -> launch(s, s.role(), null, new KubeletConfiguration(null, 50,
            null, null, null, null, null, null, null, null, null, null), s.metadataOptions(), s.blockDeviceMappings(),
            s.instanceStorePolicy(), s.userData(), s.tags(), null, null)),
        Arguments.of("metadataOptions", (UnaryOperator<EC2NodeClassSpec>) s -> launch(s, s.role(), null, s.kubelet(),
            new MetadataOptions("enabled", "disabled", 2L, "required"), s.blockDeviceMappings(), s.instanceStorePolicy(), s.userData(),
            s.tags(), null, null)),
        Arguments.of("blockDeviceMappings", (UnaryOperator<EC2NodeClassSpec>) s -> launch(s, s.role(), null, s.kubelet(),
            s.metadataOptions(), List.of(ROOT), s.instanceStorePolicy(), s.userData(), s.tags(), null, null)),
        Arguments.of("instanceStorePolicy", (UnaryOperator<EC2NodeClassSpec>) s -> launch(s, s.role(), null, s.kubelet(),
            s.metadataOptions(), s.blockDeviceMappings(), "RAID0", s.userData(), s.tags(), null, null)),
        Arguments.of("userData", (UnaryOperator<EC2NodeClassSpec>) s -> launch(s, s.role(), null, s.kubelet(), s.metadataOptions(),
            s.blockDeviceMappings(), s.instanceStorePolicy(), "#!/bin/bash\necho hi", s.tags(), null, null)),
        Arguments.of("tags", (UnaryOperator<EC2NodeClassSpec>) s -> launch(s, s.role(), null, s.kubelet(), s.metadataOptions(),
            s.blockDeviceMappings(), s.instanceStorePolicy(), s.userData(), Map.of("KubernetesVersion", "1.30"), null, null)),
        Arguments.of("associatePublicIPAddress", (UnaryOperator<EC2NodeClassSpec>) s -> launch(s, s.role(), null, s.kubelet(),
            s.metadataOptions(), s.blockDeviceMappings(), s.instanceStorePolicy(), s.userData(), s.tags(), true, null)),
        Arguments.of("detailedMonitoring", (UnaryOperator<EC2NodeClassSpec>) s -> launch(s, s.role(), null, s.kubelet(),
            s.metadataOptions(), s.blockDeviceMappings(), s.instanceStorePolicy(), s.userData(), s.tags(), null, true)),
        Arguments.of("connectionTracking", (UnaryOperator<EC2NodeClassSpec>) s -> knobs(s, s.blockDeviceMappings(),
            new ConnectionTracking(600, null, null), null, null, null)),
        Arguments.of("cpuOptions", (UnaryOperator<EC2NodeClassSpec>) s -> knobs(s, s.blockDeviceMappings(), null, null,
            new CpuOptions("enabled"), null)),
        Arguments.of("context", (UnaryOperator<EC2NodeClassSpec>) s -> knobs(s, s.blockDeviceMappings(), null, null, null, "cr-context")));
  }

  @Test
  void aVolumesInitializationRateIsHashedWithItsMapping() {
    var fromSnapshot = new BlockDevice(true, true, null, null, "snap-0123456789abcdef0", null, "100Gi", "gp3");
    var atRate = new BlockDevice(true, true, null, null, "snap-0123456789abcdef0", null, "100Gi", "gp3", 200);
    assertNotEquals(hash(s -> knobs(s, List.of(new BlockDeviceMapping("/dev/xvda", fromSnapshot, true)), null, null, null, null)),
        hash(s -> knobs(s, List.of(new BlockDeviceMapping("/dev/xvda", atRate, true)), null, null, null, null)));
  }

  @Test
  void ipPrefixCountIsNotHashedAsUpstreamIgnoresIt() {
    assertEquals(hash(s -> s), hash(s -> knobs(s, s.blockDeviceMappings(), null, 2, null, null)));
  }

  @Test
  void classesWithoutTheNewFieldsKeepTheirHash() {
    assertEquals(hash(s -> s), hash(s -> knobs(s, s.blockDeviceMappings(), null, null, null, null)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hashedFields")
  void everyOtherFieldIsHashed(String field, UnaryOperator<EC2NodeClassSpec> change) {
    assertNotEquals(hash(s -> s), hash(change), field + " drifts the class's nodes");
  }

  @Test
  void zeroValuesDefaultsAndOrderDoNotCount() {
    assertEquals(hash(s -> s), hash(s -> launch(s, s.role(), null, s.kubelet(), MetadataOptions.DEFAULT, List.of(), null, "",
        s.tags(), false, false)), "the API server's metadataOptions, empty lists and strings, false as unset");
    assertEquals(hash(s -> launch(s, s.role(), null, s.kubelet(), s.metadataOptions(), List.of(ROOT, DATA), null, null, s.tags(), null,
        null)), hash(s -> launch(s, s.role(), null, s.kubelet(), s.metadataOptions(), List.of(DATA, ROOT), null, null, s.tags(), null,
        null)), "block device mappings are a set");
  }
}
