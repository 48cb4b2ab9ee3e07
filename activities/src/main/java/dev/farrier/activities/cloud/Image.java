package dev.farrier.activities.cloud;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * An AMI. {@code arch} is x86_64 or arm64; {@code kubernetesVersion} is the minor version the image's kubelet
 * belongs to (e.g. 1.34) and {@code kubeletVersion} its full version (e.g. v1.34.2-eks-b1a6e55), when known.
 * {@code variants}: the kinds of instance type an alias resolved it for ({@link ImageVariant}); empty for an image
 * another term selected, which is for every type of its architecture.
 */
public record Image(String id, String name, String arch, String owner, String kubernetesVersion, String kubeletVersion, Instant creationDate,
    List<ImageVariant> variants) {
  /** Newer by creation date, then by name and id, so a choice among equally old images is the same every time. */
  private static final Comparator<Image> NEWEST = Comparator.comparing(Image::creationDate, Comparator.nullsFirst(Comparator.naturalOrder()))
      .thenComparing(i -> i.name() == null ? "" : i.name()).thenComparing(Image::id);

  public Image {
    variants = variants == null ? List.of() : List.copyOf(variants);
  }

  /** An image for every type of its architecture (not an alias's). */
  public Image(String id, String name, String arch, String owner, String kubernetesVersion, String kubeletVersion, Instant creationDate) {
    this(id, name, arch, owner, kubernetesVersion, kubeletVersion, creationDate, List.of());
  }

  /** The same image as an alias's image for {@code kinds} of instance type. */
  public Image withVariants(List<ImageVariant> kinds) {
    return new Image(id, name, arch, owner, kubernetesVersion, kubeletVersion, creationDate, kinds);
  }

  /** Whether a node of {@code type} can boot this image: the same architecture, and a variant for its kind if any. */
  public boolean fits(InstanceType type) {
    if (!arch.equals(type.arch())) {
      return false;
    }
    Map<String, String> labels = InstanceTypeLabels.of(type);
    return variants.isEmpty() || variants.stream().anyMatch(v -> v.fits(labels));
  }

  /** The newest of {@code images} that a node of {@code type} can boot, as Karpenter picks a type's image. */
  public static Optional<Image> newestFor(List<Image> images, InstanceType type) {
    return images.stream().filter(i -> i.fits(type)).max(NEWEST);
  }

  /** The Kubernetes arch label value (amd64, arm64) of EC2's {@code arch}. */
  public String kubernetesArch() {
    return "x86_64".equals(arch) ? "amd64" : arch;
  }

  /**
   * The newest image (creation date, then name) of each architecture and kind of instance type: what one selector
   * term resolves to, an alias keeping its accelerated images beside its standard ones.
   */
  public static List<Image> newestPerKind(List<Image> images) {
    return images.stream()
        .filter(i -> i.arch() != null)
        .collect(Collectors.groupingBy(i -> i.arch() + " " + i.variants(), TreeMap::new, Collectors.maxBy(NEWEST)))
        .values().stream().flatMap(Optional::stream).toList();
  }
}
