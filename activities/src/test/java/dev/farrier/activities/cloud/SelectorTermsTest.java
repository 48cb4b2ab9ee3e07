package dev.farrier.activities.cloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Term matching, alias parameter names and managed instance profile names: the parts both providers share. */
class SelectorTermsTest {
  private static final Map<String, String> TAGS = Map.of("karpenter.sh/discovery", "prod", "Name", "prod-private-a");

  @Test
  void tagsMustAllMatchAndStarMatchesAnyValueButNotAMissingKey() {
    assertTrue(SelectorTags.match(Map.of("karpenter.sh/discovery", "prod"), TAGS));
    assertTrue(SelectorTags.match(Map.of("karpenter.sh/discovery", "*", "Name", "prod-private-a"), TAGS));
    assertFalse(SelectorTags.match(Map.of("karpenter.sh/discovery", "prod", "Name", "other"), TAGS));
    assertFalse(SelectorTags.match(Map.of("team", "*"), TAGS));
  }

  @Test
  void subnetTermsAndIdWithTagsAndAnEmptyTermMatchesNothing() {
    assertTrue(new SubnetTerm("subnet-1", null).matches("subnet-1", TAGS));
    assertFalse(new SubnetTerm("subnet-1", Map.of("karpenter.sh/discovery", "dev")).matches("subnet-1", TAGS));
    assertTrue(new SubnetTerm(null, Map.of("karpenter.sh/discovery", "*")).matches("subnet-2", TAGS));
    assertFalse(new SubnetTerm(null, Map.of()).matches("subnet-1", TAGS));
  }

  @Test
  void securityGroupTermsMatchIdNameAndTags() {
    var group = new SecurityGroup("sg-1", "prod-node", TAGS);
    assertTrue(new SecurityGroupTerm(null, "prod-node", null).matches(group));
    assertFalse(new SecurityGroupTerm(null, "prod-private-a", null).matches(group), "name is the group name, not the Name tag");
    assertTrue(new SecurityGroupTerm("sg-1", null, Map.of("karpenter.sh/discovery", "prod")).matches(group));
    assertFalse(new SecurityGroupTerm("sg-2", "prod-node", null).matches(group));
    assertFalse(new SecurityGroupTerm(null, null, null).matches(group));
  }

  @Test
  void aliasParametersAreEksPublishedNames() {
    assertEquals("/aws/service/eks/optimized-ami/1.34/amazon-linux-2023/x86_64/standard/recommended/image_id",
        AmiAlias.parse("al2023@latest").parameter(AmiAlias.AWS_PARAMETER_ROOT, "x86_64", "1.34"));
    assertEquals("/aws/service/eks/optimized-ami/1.34/amazon-linux-2023/arm64/standard/amazon-eks-node-al2023-arm64-standard-1.34-v20251103/image_id",
        AmiAlias.parse("al2023@v20251103").parameter(AmiAlias.AWS_PARAMETER_ROOT, "arm64", "1.34"));
    assertEquals("/aws/service/eks/optimized-ami/1.33/amazon-linux-2/recommended/image_id",
        AmiAlias.parse("al2@latest").parameter(AmiAlias.AWS_PARAMETER_ROOT, "x86_64", "1.33"));
    assertEquals("/aws/service/eks/optimized-ami/1.33/amazon-linux-2-arm64/amazon-eks-arm64-node-1.33-v20251020/image_id",
        AmiAlias.parse("al2@v20251020").parameter(AmiAlias.AWS_PARAMETER_ROOT, "arm64", "1.33"));
    assertEquals("/aws/service/eks/optimized-ami/1.33/amazon-linux-2/amazon-eks-node-1.33-v20251020/image_id",
        AmiAlias.parse("al2@v20251020").parameter(AmiAlias.AWS_PARAMETER_ROOT, "x86_64", "1.33"));
    assertEquals("/aws/service/bottlerocket/aws-k8s-1.35/arm64/latest/image_id",
        AmiAlias.parse("bottlerocket@latest").parameter(AmiAlias.AWS_PARAMETER_ROOT, "arm64", "1.35"));
    assertEquals("/test-root/bottlerocket/aws-k8s-1.35/x86_64/1.50.0/image_id",
        AmiAlias.parse("bottlerocket@v1.50.0").parameter("/test-root/", "x86_64", "1.35"));
    assertEquals("/aws/service/ami-windows-latest/Windows_Server-2022-English-Core-EKS_Optimized-1.35/image_id",
        AmiAlias.parse("windows2022@latest").parameter(AmiAlias.AWS_PARAMETER_ROOT, "x86_64", "1.35"));
    assertEquals(List.of("x86_64"), AmiAlias.parse("windows2019@latest").architectures(), "Windows images are x86_64 only");
  }

  /** Each family's accelerated images, by the paths AWS publishes them under, each for the kinds of type it serves. */
  @Test
  void aliasesReadTheAcceleratedParametersToo() {
    var root = AmiAlias.AWS_PARAMETER_ROOT;
    assertEquals(Map.of(
            "/aws/service/eks/optimized-ami/1.34/amazon-linux-2023/x86_64/standard/recommended/image_id", List.of(ImageVariant.STANDARD),
            "/aws/service/eks/optimized-ami/1.34/amazon-linux-2023/x86_64/nvidia/recommended/image_id", List.of(ImageVariant.NVIDIA),
            "/aws/service/eks/optimized-ami/1.34/amazon-linux-2023/x86_64/neuron/recommended/image_id", List.of(ImageVariant.NEURON),
            "/aws/service/eks/optimized-ami/1.34/amazon-linux-2023/arm64/standard/recommended/image_id", List.of(ImageVariant.STANDARD),
            "/aws/service/eks/optimized-ami/1.34/amazon-linux-2023/arm64/nvidia/recommended/image_id", List.of(ImageVariant.NVIDIA)),
        byName(AmiAlias.parse("al2023@latest").parameters(root, "1.34")));
    assertEquals(List.of(ImageVariant.NEURON, ImageVariant.NVIDIA),
        byName(AmiAlias.parse("al2@v20251020").parameters(root, "1.33"))
            .get("/aws/service/eks/optimized-ami/1.33/amazon-linux-2-gpu/amazon-eks-gpu-node-1.33-v20251020/image_id"));
    assertEquals(Map.of(
            "/aws/service/bottlerocket/aws-k8s-1.35/x86_64/1.50.0/image_id", List.of(ImageVariant.STANDARD, ImageVariant.NEURON),
            "/aws/service/bottlerocket/aws-k8s-1.35/arm64/1.50.0/image_id", List.of(ImageVariant.STANDARD),
            "/aws/service/bottlerocket/aws-k8s-1.35-nvidia/x86_64/1.50.0/image_id", List.of(ImageVariant.NVIDIA),
            "/aws/service/bottlerocket/aws-k8s-1.35-nvidia/arm64/1.50.0/image_id", List.of(ImageVariant.NVIDIA)),
        byName(AmiAlias.parse("bottlerocket@v1.50.0").parameters(root, "1.35")));
  }

  private static Map<String, List<ImageVariant>> byName(List<AmiAlias.Parameter> parameters) {
    return parameters.stream().collect(java.util.stream.Collectors.toMap(AmiAlias.Parameter::name, AmiAlias.Parameter::variants));
  }

  @Test
  void malformedAliasesAreInvalidRequests() {
    for (String alias : new String[] {"al2023", "@latest", "al2023@", "windows2022@v20251020", "ubuntu@latest", "Windows2022@latest", "al2@latest@x"}) {
      var e = assertThrows(CloudProviderException.class, () -> AmiAlias.parse(alias), alias);
      assertEquals(CloudProviderException.Kind.INVALID_REQUEST, e.kind());
    }
  }

  @Test
  void managedInstanceProfileNamesAreDeterministicPerClassAndBoundedForIam() {
    String name = InstanceProfileNames.managed("us-east-1", "prod", "default");
    assertEquals(name, InstanceProfileNames.managed("us-east-1", "prod", "default"));
    assertTrue(name.matches("prod_[0-9a-f]{16}"), name);
    assertTrue(!name.equals(InstanceProfileNames.managed("us-east-1", "prod", "gpu")));
    assertTrue(!name.equals(InstanceProfileNames.managed("eu-west-1", "prod", "default")));
    String long1 = InstanceProfileNames.managed("us-east-1", "c".repeat(200), "a");
    String long2 = InstanceProfileNames.managed("us-east-1", "c".repeat(200), "b");
    assertEquals(InstanceProfileNames.MAX_LENGTH, long1.length());
    assertTrue(!long1.equals(long2));
    assertTrue(InstanceProfileNames.managed("us-east-1", "a b/c", "x").matches("[\\w+=,.@-]+"));
  }

  @Test
  void instanceProfileRequestsNeedExactlyOneOfRoleAndProfile() {
    assertNull(InstanceProfileRequest.ofRole("c", "n", "role").problem());
    assertNull(InstanceProfileRequest.ofInstanceProfile("c", "n", "profile").problem());
    assertTrue(new InstanceProfileRequest("c", "n", null, null).problem().contains("exactly one"));
    assertTrue(new InstanceProfileRequest("c", "n", "r", "p").problem().contains("exactly one"));
  }
}
