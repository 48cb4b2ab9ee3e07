package dev.farrier.activities.cloud.aws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.AmiSelectorTerm;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.CloudProviderException.Kind;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.ImageVariant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.TagSpecification;

/**
 * amiSelectorTerms against moto's EC2 and SSM. Images are made with CreateImage from instances of one x86_64 and one
 * arm64 AMI moto ships, so they carry real architectures, owner "self" and creation dates. moto stamps creation
 * dates with one-second precision, so the two x86_64 releases are made more than a second apart.
 */
class AwsImageResolverIT extends MotoIT {
  private static final String K8S = "1.34";
  private static String prefix;
  private static String x86V1;
  private static String x86V2;
  private static String armV1;
  private static String parameterRoot;
  private static AwsImageResolver resolver;

  @BeforeAll
  static void images() throws InterruptedException {
    prefix = unique("farrier-ami");
    String x86Source = amazonImage("x86_64");
    String armSource = amazonImage("arm64");
    String x86Instance = run(x86Source);
    String armInstance = run(armSource);
    x86V1 = image(x86Instance, prefix + "-x86_64-v1", "v1");
    armV1 = image(armInstance, prefix + "-arm64-v1", "v1");
    Thread.sleep(1_100);
    x86V2 = image(x86Instance, prefix + "-x86_64-v2", "v2");
    parameterRoot = "/" + unique("farrier-it-params");
    resolver = new AwsImageResolver(aws, () -> K8S, parameterRoot);
  }

  private static String amazonImage(String arch) {
    return aws.ec2().describeImages(b -> b.owners("amazon").filters(Ec2Filters.of("architecture", arch))).images().getFirst().imageId();
  }

  private static String run(String imageId) {
    return aws.ec2().runInstances(b -> b.imageId(imageId).minCount(1).maxCount(1).instanceType("t3.micro")).instances().getFirst().instanceId();
  }

  private static String image(String instanceId, String name, String release) {
    return aws.ec2().createImage(b -> b.instanceId(instanceId).name(name).tagSpecifications(TagSpecification.builder()
        .resourceType(ResourceType.IMAGE).tags(tag(prefix, release), tag("farrier-it", prefix)).build())).imageId();
  }

  private static Tag tag(String key, String value) {
    return Tag.builder().key(key).value(value).build();
  }

  private static List<String> ids(AmiSelectorTerm... terms) {
    return resolver.resolve(List.of(terms)).stream().map(Image::id).sorted().toList();
  }

  private static List<String> sorted(String... ids) {
    return List.of(ids).stream().sorted().toList();
  }

  private static AmiSelectorTerm name(String name, String owner) {
    return new AmiSelectorTerm(null, name, owner, Map.of(), null);
  }

  private static AmiSelectorTerm tags(Map<String, String> tags) {
    return new AmiSelectorTerm(null, null, null, tags, null);
  }

  private static AmiSelectorTerm alias(String alias) {
    return new AmiSelectorTerm(null, null, null, Map.of(), alias);
  }

  private static void parameter(String name, String value) {
    aws.ssm().putParameter(b -> b.name(name).value(value).type("String").overwrite(true));
  }

  @Test
  void byIdWithItsResolvedFields() {
    List<Image> images = resolver.resolve(List.of(AmiSelectorTerm.byId(armV1)));
    assertEquals(1, images.size());
    Image image = images.getFirst();
    assertEquals(List.of(armV1, prefix + "-arm64-v1", "arm64", "arm64"), List.of(image.id(), image.name(), image.arch(), image.kubernetesArch()));
    assertTrue(image.owner().matches("\\d{12}"), image.owner());
    assertTrue(image.creationDate().getEpochSecond() > 0, image.creationDate().toString());
  }

  @Test
  void nameWildcardWithTheDefaultOwnersSelfAndAmazonKeepsTheNewestPerArchitecture() {
    assertEquals(sorted(x86V2, armV1), ids(name(prefix + "-*", null)));
    assertEquals(List.of(x86V2), ids(name(prefix + "-x86_64-v?", null)), "? is one character; the newer release wins");
    assertEquals(List.of(x86V1), ids(name(prefix + "-x86_64-v1", null)));
    String account = resolver.resolve(List.of(AmiSelectorTerm.byId(x86V1))).getFirst().owner();
    assertEquals(sorted(x86V2, armV1), ids(name(prefix + "-*", account)));
    assertEquals(List.of(), ids(name(prefix + "-*", "amazon")), "our images are self-owned, not amazon's");
  }

  @Test
  void tagsMustAllMatchAndStarMatchesAnyValue() {
    assertEquals(sorted(x86V2, armV1), ids(tags(Map.of(prefix, "*"))));
    assertEquals(sorted(x86V1, armV1), ids(tags(Map.of(prefix, "v1", "farrier-it", prefix))));
    assertEquals(List.of(), ids(tags(Map.of(prefix, "v1", "farrier-it", "someone-else"))));
  }

  @Test
  void termsAreOredEachKeepingItsOwnNewest() {
    assertEquals(sorted(x86V1, x86V2, armV1), ids(AmiSelectorTerm.byId(x86V1), name(prefix + "-*", null)));
  }

  @Test
  void aliasReadsTheSsmParametersOfTheClusterVersionUnderTheConfiguredRoot() {
    parameter(parameterRoot + "/eks/optimized-ami/1.34/amazon-linux-2023/x86_64/standard/recommended/image_id", x86V2);
    parameter(parameterRoot + "/eks/optimized-ami/1.34/amazon-linux-2023/arm64/standard/recommended/image_id", armV1);
    parameter(parameterRoot + "/eks/optimized-ami/1.34/amazon-linux-2023/x86_64/standard/amazon-eks-node-al2023-x86_64-standard-1.34-v20251020/image_id", x86V1);
    parameter(parameterRoot + "/eks/optimized-ami/1.33/amazon-linux-2023/x86_64/standard/recommended/image_id", x86V1);
    parameter(parameterRoot + "/eks/optimized-ami/1.34/amazon-linux-2-arm64/recommended/image_id", armV1);
    parameter(parameterRoot + "/bottlerocket/aws-k8s-1.34/x86_64/1.50.0/image_id", x86V1);

    List<Image> latest = resolver.resolve(List.of(alias("al2023@latest")));
    assertEquals(sorted(x86V2, armV1), latest.stream().map(Image::id).sorted().toList());
    assertTrue(latest.stream().allMatch(i -> K8S.equals(i.kubernetesVersion())), latest.toString());
    assertEquals(List.of(x86V1), ids(alias("al2023@v20251020")));
    assertEquals(List.of(armV1), ids(alias("al2@latest")));
    assertEquals(List.of(x86V1), ids(alias("bottlerocket@v1.50.0")));
    assertEquals(List.of(), ids(alias("bottlerocket@latest")), "no parameter published: nothing, not an error");
    assertEquals(List.of(x86V1), new AwsImageResolver(aws, () -> "1.33", parameterRoot).resolve(List.of(alias("al2023@latest")))
        .stream().map(Image::id).toList(), "the Kubernetes version is read on every resolution");
  }

  /**
   * An {@code ssmParameter} term resolves to the image its parameter holds, read again at each resolution; a missing
   * parameter or one that holds no image id resolves to nothing, not an error.
   */
  @Test
  void anSsmParameterTermResolvesTheImageItsParameterHolds() {
    String name = "/" + unique("team") + "/ami/prod";
    parameter(name, x86V1);
    assertEquals(List.of(x86V1), ids(AmiSelectorTerm.bySsmParameter(name)));
    parameter(name, x86V2);
    assertEquals(List.of(x86V2), ids(AmiSelectorTerm.bySsmParameter(name)), "the parameter moved on: so does the term");

    assertEquals(List.of(), ids(AmiSelectorTerm.bySsmParameter(name + "-missing")));
    parameter(name + "-text", "not-an-image");
    assertEquals(List.of(), ids(AmiSelectorTerm.bySsmParameter(name + "-text")));
  }

  /** An alias reads its family's accelerated parameters too, and says which kinds of type each image is for. */
  @Test
  void anAliasResolvesItsNvidiaAndNeuronImagesEachForItsKindOfType() {
    parameter(parameterRoot + "/eks/optimized-ami/1.32/amazon-linux-2023/x86_64/standard/recommended/image_id", x86V2);
    parameter(parameterRoot + "/eks/optimized-ami/1.32/amazon-linux-2023/x86_64/nvidia/recommended/image_id", x86V1);
    parameter(parameterRoot + "/eks/optimized-ami/1.32/amazon-linux-2023/arm64/nvidia/recommended/image_id", armV1);
    parameter(parameterRoot + "/eks/optimized-ami/1.32/amazon-linux-2-gpu/recommended/image_id", x86V1);
    var resolver132 = new AwsImageResolver(aws, () -> "1.32", parameterRoot);

    Map<String, List<ImageVariant>> al2023 = resolver132.resolve(List.of(alias("al2023@latest"))).stream()
        .collect(java.util.stream.Collectors.toMap(Image::id, Image::variants));
    Map<String, List<ImageVariant>> al2 = resolver132.resolve(List.of(alias("al2@latest"))).stream()
        .collect(java.util.stream.Collectors.toMap(Image::id, Image::variants));

    assertEquals(Map.of(x86V2, List.of(ImageVariant.STANDARD), x86V1, List.of(ImageVariant.NVIDIA), armV1, List.of(ImageVariant.NVIDIA)),
        al2023, "no Neuron or arm64 standard parameter published for 1.32 here: those are left out");
    assertEquals(Map.of(x86V1, List.of(ImageVariant.NVIDIA, ImageVariant.NEURON)), al2, "AL2's one gpu image serves both kinds");
  }

  @Test
  void aWindowsAliasReadsItsOneLatestParameterAndIsX86Only() {
    parameter(parameterRoot + "/ami-windows-latest/Windows_Server-2022-English-Core-EKS_Optimized-1.34/image_id", x86V2);
    parameter(parameterRoot + "/ami-windows-latest/Windows_Server-2019-English-Core-EKS_Optimized-1.33/image_id", x86V1);

    List<Image> windows = resolver.resolve(List.of(alias("windows2022@latest")));
    assertEquals(List.of(x86V2), windows.stream().map(Image::id).toList());
    assertEquals("amd64", windows.getFirst().kubernetesArch());
    assertEquals(List.of(), ids(alias("windows2019@latest")), "1.34 has no 2019 parameter here: nothing, not an error");
    assertEquals(List.of(x86V1), new AwsImageResolver(aws, () -> "1.33", parameterRoot).resolve(List.of(alias("windows2019@latest")))
        .stream().map(Image::id).toList());
    for (String refused : List.of("windows2022@v20251020", "windows2025@latest")) {
      var e = assertThrows(CloudProviderException.class, () -> resolver.resolve(List.of(alias(refused))), refused);
      assertEquals(Kind.INVALID_REQUEST, e.kind());
    }
  }

  @Test
  void anAliasMixedWithOtherTermsIsAnInvalidRequest() {
    var e = assertThrows(CloudProviderException.class, () -> resolver.resolve(List.of(alias("al2023@latest"), AmiSelectorTerm.byId(x86V1))));
    assertEquals(Kind.INVALID_REQUEST, e.kind());
    assertTrue(e.getMessage().contains("alias cannot be combined"), e.getMessage());
  }

  @Test
  void selectorsMatchingNothingResolveToNothingWithoutAnError() {
    assertEquals(List.of(), ids(AmiSelectorTerm.byId("ami-00000000000000000")));
    assertEquals(List.of(), ids(name(prefix + "-nothing-*", null)));
    assertEquals(List.of(), ids(new AmiSelectorTerm(null, null, null, Map.of(), null)), "an empty term never means every image");
  }
}
