package dev.farrier.activities.rollout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.AmiSelectorTerm;
import dev.farrier.activities.cloud.Image;
import dev.farrier.activities.cloud.simulated.AmiCatalog;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A fleet upgrade by Kubernetes version picks the newest EKS-optimized images of the class's family for it. */
class KubernetesVersionImagesTest {
  private static List<Image> resolve(String family, String version) {
    var terms = KubernetesVersionImages.terms(family, version).stream()
        .map(t -> new AmiSelectorTerm(t.id(), t.name(), t.owner(), t.tags(), t.alias())).toList();
    return AmiCatalog.load("1.34").resolve(terms);
  }

  @Test
  void eachFamilyGetsTheNewestReleaseOfThatVersionForEveryArchitecture() {
    for (String family : List.of("AL2023", "AL2", "Bottlerocket")) {
      List<Image> images = resolve(family, "1.35");
      assertEquals(2, images.size(), family + ": " + images);
      assertTrue(images.stream().allMatch(i -> i.kubernetesVersion().equals("1.35")), family + ": " + images);
      assertEquals(List.of("arm64", "x86_64"), images.stream().map(Image::arch).sorted().toList(), family + ": " + images);
      assertTrue(images.stream().allMatch(i -> i.name().contains("v20251103") || i.name().contains("v1.50.0")),
          family + " newest release: " + images);
    }
  }

  @Test
  void aWindowsFamilyGetsItsNewestX86ImageOfThatVersion() {
    assertEquals(List.of("Windows_Server-2022-English-Core-EKS_Optimized-1.35-2025.11.03"),
        resolve("Windows2022", "1.35").stream().map(Image::name).toList());
    assertEquals(List.of("Windows_Server-2019-English-Core-EKS_Optimized-1.33-2025.11.03"),
        resolve("windows2019", "1.33").stream().map(Image::name).toList());
  }

  @Test
  void theBrokenSandboxImagesAndOtherVersionsAreNeverPicked() {
    assertTrue(resolve("AL2023", "1.35").stream().noneMatch(i -> i.name().startsWith("farrier-sandbox-broken")));
    assertTrue(resolve("AL2023", "1.33").stream().allMatch(i -> i.kubernetesVersion().equals("1.33")));
  }

  @Test
  void aFamilyWithoutEksImagesOrAVersionThatIsNotMajorMinorIsRefused() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> KubernetesVersionImages.terms("Custom", "1.35"))
        .getMessage().contains("--ami"));
    assertThrows(IllegalArgumentException.class, () -> KubernetesVersionImages.terms("AL2023", "v1.35"));
    assertThrows(IllegalArgumentException.class, () -> KubernetesVersionImages.terms("AL2023", "1.35; rm"));
  }
}
