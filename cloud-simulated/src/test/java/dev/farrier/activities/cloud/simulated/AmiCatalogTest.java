package dev.farrier.activities.cloud.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.AmiSelectorTerm;
import dev.farrier.activities.cloud.CloudProviderException;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.ImageVariant;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AmiCatalogTest {
  private final AmiCatalog amis = AmiCatalog.load("1.34");

  private List<String> names(AmiSelectorTerm... terms) {
    return amis.resolve(List.of(terms)).stream().map(Image::name).sorted().toList();
  }

  private static AmiSelectorTerm name(String name, String owner) {
    return new AmiSelectorTerm(null, name, owner, Map.of(), null);
  }

  private static AmiSelectorTerm alias(String alias) {
    return new AmiSelectorTerm(null, null, null, Map.of(), alias);
  }

  private String idOf(String name) {
    return amis.images().stream().filter(i -> i.name().equals(name)).findFirst().orElseThrow().id();
  }

  @Test
  void resolvesById() {
    String id = idOf("amazon-eks-node-al2023-arm64-standard-1.33-v20251020");
    List<Image> images = amis.resolve(List.of(AmiSelectorTerm.byId(id)));
    assertEquals(1, images.size());
    assertEquals("arm64", images.getFirst().arch());
    assertEquals("602401143452", images.getFirst().owner());
    assertTrue(images.getFirst().kubeletVersion().matches("v1\\.33\\.5-eks-[0-9a-f]{7}"), images.getFirst().kubeletVersion());
  }

  @Test
  void wildcardNameResolvesToTheNewestPerArchitecture() {
    assertEquals(List.of("amazon-eks-node-al2023-arm64-standard-1.34-v20251103", "amazon-eks-node-al2023-x86_64-standard-1.34-v20251103"),
        names(name("amazon-eks-node-al2023-*-standard-1.34-*", null)));
    assertEquals(List.of("amazon-eks-node-1.35-v20251020"), names(name("amazon-eks-node-1.35-v2025102?", null)));
  }

  @Test
  void ownerFiltersByAliasAccountIdOrSelf() {
    String pattern = "amazon-eks-node-1.34-*";
    assertEquals(List.of("amazon-eks-node-1.34-v20251103"), names(name(pattern, "amazon")));
    assertEquals(List.of("amazon-eks-node-1.34-v20251103"), names(name(pattern, "602401143452")));
    assertEquals(List.of(), names(name(pattern, "self")));
    assertEquals(List.of(), names(name(pattern, "123456789012")));
    assertEquals(List.of("amazon-eks-node-1.34-v20251103"), names(name(pattern, "self, amazon")));
  }

  @Test
  void tagsMustAllMatchAndStarMatchesAnyValue() {
    AmiSelectorTerm tags = new AmiSelectorTerm(null, null, null, Map.of("os", "bottlerocket", "kubernetes-version", "1.33"), null);
    List<Image> images = amis.resolve(List.of(tags));
    assertEquals(2, images.size());
    assertTrue(images.stream().allMatch(i -> i.name().startsWith("bottlerocket-aws-k8s-1.33-") && i.name().contains("-v1.50.0-")));
    AmiSelectorTerm anyRelease = new AmiSelectorTerm(null, null, null, Map.of("os", "al2", "release", "*"), null);
    assertEquals(List.of("amazon-eks-arm64-node-1.35-v20251103", "amazon-eks-node-1.35-v20251103"), names(anyRelease));
  }

  @Test
  void aliasesResolveForTheClusterVersion() {
    assertEquals(List.of("amazon-eks-node-al2023-arm64-nvidia-1.34-v20251103", "amazon-eks-node-al2023-arm64-standard-1.34-v20251103",
        "amazon-eks-node-al2023-x86_64-neuron-1.34-v20251103", "amazon-eks-node-al2023-x86_64-nvidia-1.34-v20251103",
        "amazon-eks-node-al2023-x86_64-standard-1.34-v20251103"), names(alias("al2023@latest")));
    assertEquals(List.of("amazon-eks-arm64-node-1.34-v20251020", "amazon-eks-gpu-node-1.34-v20251020", "amazon-eks-node-1.34-v20251020"),
        names(alias("al2@v20251020")));
    List<String> bottlerocket = names(alias("bottlerocket@latest"));
    assertEquals(4, bottlerocket.size(), "the standard and the NVIDIA image of each architecture " + bottlerocket);
    assertTrue(bottlerocket.stream().allMatch(n -> n.startsWith("bottlerocket-aws-k8s-1.34-") && n.contains("-v1.50.0-")), bottlerocket.toString());
    assertTrue(names(alias("bottlerocket@v1.49.0")).stream().allMatch(n -> n.contains("-v1.49.0-")));
    assertTrue(AmiCatalog.load("1.35").resolve(List.of(alias("al2023@latest"))).stream()
        .allMatch(i -> i.name().endsWith("-1.35-v20251103")), "the other cluster version's");
  }

  @Test
  void windowsAliasesResolveToTheLatestX86ImageThroughTheirSsmParameter() {
    String latest2022 = "/aws/service/ami-windows-latest/Windows_Server-2022-English-Core-EKS_Optimized-1.34/image_id";
    assertEquals(idOf("Windows_Server-2022-English-Core-EKS_Optimized-1.34-2025.11.03"), amis.ssmParameter(latest2022).orElseThrow());
    assertEquals(List.of("Windows_Server-2022-English-Core-EKS_Optimized-1.34-2025.11.03"), names(alias("windows2022@latest")));
    assertEquals(List.of("Windows_Server-2019-English-Core-EKS_Optimized-1.34-2025.11.03"), names(alias("windows2019@latest")));
    assertEquals("x86_64", amis.resolve(List.of(alias("windows2019@latest"))).getFirst().arch());
    assertEquals(List.of("Windows_Server-2025-English-Core-EKS_Optimized-1.35-2025.11.03"),
        AmiCatalog.load("1.35").resolve(List.of(alias("windows2025@latest"))).stream().map(Image::name).toList());
    assertTrue(amis.ssmParameters().keySet().stream().filter(p -> p.contains("Windows_Server")).allMatch(p -> p.startsWith(
        "/aws/service/ami-windows-latest/")), "Windows has only latest parameters");
  }

  @Test
  void windows2025BeforeKubernetes135IsRefusedAsKarpenterDoes() {
    CloudProviderException e = assertThrows(CloudProviderException.class, () -> amis.resolve(List.of(alias("windows2025@latest"))));
    assertEquals(CloudProviderException.Kind.INVALID_REQUEST, e.kind());
    assertTrue(e.getMessage().contains("requires Kubernetes 1.35"), e.getMessage());
  }

  @Test
  void unknownSelectorsResolveToNothing() {
    assertEquals(List.of(), names(AmiSelectorTerm.byId("ami-00000000000000000")));
    assertEquals(List.of(), names(name("ubuntu-*", null)));
    assertEquals(List.of(), names(alias("al2023@v19990101")));
    assertEquals(List.of(), names(new AmiSelectorTerm(null, null, null, Map.of(), null)));
  }

  @Test
  void termsAreOred() {
    String al2023Arm = idOf("amazon-eks-node-al2023-arm64-standard-1.33-v20251020");
    assertEquals(List.of("amazon-eks-node-1.35-v20251020", "amazon-eks-node-al2023-arm64-standard-1.33-v20251020"),
        names(AmiSelectorTerm.byId(al2023Arm), name("amazon-eks-node-1.35-v2025102?", null)));
  }

  @Test
  void anAliasMixedWithOtherTermsOrOfAnUnknownFamilyIsAnInvalidRequest() {
    for (List<AmiSelectorTerm> terms : List.of(
        List.of(alias("al2023@latest"), alias("al2@latest")),
        List.of(alias("al2023@latest"), AmiSelectorTerm.byId(idOf("amazon-eks-node-1.34-v20251103"))),
        List.of(new AmiSelectorTerm(null, "amazon-eks-*", null, Map.of(), "al2@latest")),
        List.of(alias("windows2022@2025.11.03")),
        List.of(alias("ubuntu@latest")),
        List.of(alias("al2023")))) {
      CloudProviderException e = assertThrows(CloudProviderException.class, () -> amis.resolve(terms), terms.toString());
      assertEquals(CloudProviderException.Kind.INVALID_REQUEST, e.kind());
      assertTrue(e.getMessage().contains("alias"), e.getMessage());
    }
  }

  @Test
  void publishesSsmParametersLikeAws() {
    assertEquals(idOf("amazon-eks-node-1.34-v20251103"),
        amis.ssmParameter("/aws/service/eks/optimized-ami/1.34/amazon-linux-2/recommended/image_id").orElseThrow());
    assertEquals(idOf("amazon-eks-arm64-node-1.33-v20251103"),
        amis.ssmParameter("/aws/service/eks/optimized-ami/1.33/amazon-linux-2-arm64/recommended/image_id").orElseThrow());
    assertEquals(idOf("amazon-eks-node-al2023-x86_64-standard-1.35-v20251103"),
        amis.ssmParameter("/aws/service/eks/optimized-ami/1.35/amazon-linux-2023/x86_64/standard/recommended/image_id").orElseThrow());
    assertEquals(idOf("amazon-eks-node-al2023-x86_64-standard-1.34-v20251020"),
        amis.ssmParameter("/aws/service/eks/optimized-ami/1.34/amazon-linux-2023/x86_64/standard/amazon-eks-node-al2023-x86_64-standard-1.34-v20251020/image_id").orElseThrow());
    String bottlerocket = amis.ssmParameter("/aws/service/bottlerocket/aws-k8s-1.34/arm64/latest/image_id").orElseThrow();
    assertTrue(amis.findById(bottlerocket).orElseThrow().name().startsWith("bottlerocket-aws-k8s-1.34-aarch64-v1.50.0-"));
    assertTrue(amis.ssmParameter("/aws/service/eks/optimized-ami/1.20/amazon-linux-2/recommended/image_id").isEmpty());
  }

  @Test
  void everyIdIsDerivedFromTheName() throws Exception {
    MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
    for (Image image : amis.images()) {
      String hex = HexFormat.of().formatHex(sha256.digest(image.name().getBytes(StandardCharsets.UTF_8)));
      assertEquals("ami-" + hex.substring(0, 17), image.id(), image.name());
    }
  }

  @Test
  void theBrokenImagesArePrivateAndNeverJoin() {
    List<String> broken = List.of("farrier-sandbox-broken-al2023-arm64-1.34-v20251117", "farrier-sandbox-broken-al2023-x86_64-1.34-v20251117");
    assertEquals(broken, names(name("farrier-sandbox-broken-al2023-*-1.34-*", "self")));
    assertEquals(broken, names(name("farrier-sandbox-broken-al2023-*-1.34-*", AmiCatalog.SELF_ACCOUNT_ID)));
    assertEquals(broken, names(new AmiSelectorTerm(null, null, "self",
        Map.of(CatalogImage.SIMULATED_BOOT_TAG, "never-joins", "kubernetes-version", "1.34"), null)));
    assertEquals(List.of("farrier-sandbox-broken-al2023-arm64-1.35-v20251117", "farrier-sandbox-broken-al2023-x86_64-1.35-v20251117"),
        names(name("farrier-sandbox-broken-*", "self")), "across versions the newest (1.35, by name) wins");
    assertEquals(List.of(), names(name("farrier-sandbox-broken-*", "amazon")));
    assertEquals(List.of(), names(name("farrier-sandbox-broken-*", " , amazon")), "an empty owner is not the images' empty alias");

    assertEquals(6, amis.images().stream().filter(i -> amis.neverJoins(i.id())).count());
    assertTrue(amis.images().stream().filter(i -> amis.neverJoins(i.id()))
        .allMatch(i -> i.name().startsWith("farrier-sandbox-broken-al2023-") && AmiCatalog.SELF_ACCOUNT_ID.equals(i.owner())));
    assertFalse(amis.neverJoins(idOf("amazon-eks-node-al2023-x86_64-standard-1.34-v20251103")));
    assertFalse(amis.neverJoins("ami-00000000000000000"));
  }

  @Test
  void anSsmParameterTermResolvesThePublicParameterOfAnEksImage() {
    String parameter = "/aws/service/eks/optimized-ami/1.34/amazon-linux-2023/arm64/standard/recommended/image_id";
    assertEquals(List.of("amazon-eks-node-al2023-arm64-standard-1.34-v20251103"),
        amis.resolve(List.of(AmiSelectorTerm.bySsmParameter(parameter))).stream().map(Image::name).toList());
    assertEquals(List.of(), amis.resolve(List.of(AmiSelectorTerm.bySsmParameter("/team/no-such-parameter"))));
  }

  @Test
  void theBrokenImagesChangeNoAliasAndNoSsmParameter() {
    for (String version : List.of("1.33", "1.34", "1.35")) {
      AmiCatalog catalog = AmiCatalog.load(version);
      assertEquals(List.of("amazon-eks-node-al2023-arm64-standard-" + version + "-v20251103",
              "amazon-eks-node-al2023-x86_64-standard-" + version + "-v20251103"),
          catalog.resolve(List.of(alias("al2023@latest"))).stream().filter(i -> i.variants().contains(ImageVariant.STANDARD))
              .map(Image::name).sorted().toList(), version);
      assertEquals(List.of(), catalog.resolve(List.of(alias("al2023@v20251117"))), version);
      assertTrue(catalog.ssmParameters().values().stream()
              .allMatch(id -> AmiCatalog.AMAZON_OWNER_ID.equals(catalog.findById(id).orElseThrow().owner())),
          catalog.ssmParameters().toString());
      String recommended = catalog.ssmParameter(
          "/aws/service/eks/optimized-ami/" + version + "/amazon-linux-2023/arm64/standard/recommended/image_id").orElseThrow();
      assertEquals("amazon-eks-node-al2023-arm64-standard-" + version + "-v20251103", catalog.findById(recommended).orElseThrow().name());
    }
  }

  @Test
  void aClusterVersionWithoutImagesFailsClearly() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AmiCatalog.load("1.20"));
    assertTrue(e.getMessage().contains("1.20") && e.getMessage().contains("1.34"), e.getMessage());
  }
}
