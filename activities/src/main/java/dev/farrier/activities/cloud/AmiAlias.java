package dev.farrier.activities.cloud;

import dev.farrier.activities.cloud.CloudProviderException.Kind;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An {@code amiSelectorTerms} alias {@code family@version}, and the SSM public parameter AWS publishes its image id
 * under, for one architecture and Kubernetes minor version (as Karpenter's AWS provider reads them):
 * <ul>
 *   <li>{@code al2023}: {@code <root>/eks/optimized-ami/<k8s>/amazon-linux-2023/<arch>/standard/recommended/image_id},
 *       pinned {@code .../standard/amazon-eks-node-al2023-<arch>-standard-<k8s>-<version>/image_id}</li>
 *   <li>{@code al2}: {@code <root>/eks/optimized-ami/<k8s>/amazon-linux-2[-arm64]/recommended/image_id}, pinned
 *       {@code .../amazon-linux-2[-arm64]/amazon-eks-[arm64-]node-<k8s>-<version>/image_id}</li>
 *   <li>{@code bottlerocket}: {@code <root>/bottlerocket/aws-k8s-<k8s>/<arch>/latest/image_id}, pinned with the
 *       version without its {@code v} ({@code .../x86_64/1.50.0/image_id})</li>
 *   <li>{@code windows2019}, {@code windows2022}, {@code windows2025} ({@link WindowsFamily}): only {@code latest},
 *       x86_64 only, {@code <root>/ami-windows-latest/Windows_Server-<year>-English-Core-EKS_Optimized-<k8s>/image_id}</li>
 * </ul>
 * The root is {@code /aws/service} in AWS; tests point it at a writable prefix. Each Linux family also publishes
 * accelerated images ({@link #parameters}), which an alias resolves too, each for the kinds of instance type it is
 * built for ({@link ImageVariant}).
 */
public record AmiAlias(String family, String version) {
  public static final String AWS_PARAMETER_ROOT = "/aws/service";
  public static final String LATEST = "latest";
  public static final Set<String> FAMILIES = Set.of("al2", "al2023", "bottlerocket");
  /** EC2's architecture names, in the order aliases are resolved. */
  public static final List<String> ARCHITECTURES = List.of("x86_64", "arm64");
  /** The flavours of a family's images, as their parameter paths name them. */
  public static final String STANDARD = "standard";
  public static final String NVIDIA = "nvidia";
  public static final String NEURON = "neuron";
  /** AL2's one accelerated image, for NVIDIA and Neuron types alike. */
  public static final String GPU = "gpu";

  /** Parses {@code family@version}; an unknown family or a missing version is an {@link Kind#INVALID_REQUEST}. */
  public static AmiAlias parse(String alias) {
    int at = alias.indexOf('@');
    if (at <= 0 || at == alias.length() - 1 || alias.indexOf('@', at + 1) >= 0) {
      throw new CloudProviderException(Kind.INVALID_REQUEST,
          "amiSelectorTerms alias '" + alias + "' must be family@version, e.g. al2023@latest or al2@v20251103");
    }
    String family = alias.substring(0, at);
    if (!known(family)) {
      throw new CloudProviderException(Kind.INVALID_REQUEST,
          "amiSelectorTerms alias '" + alias + "': family must be one of al2, al2023, bottlerocket, windows2019, windows2022, windows2025");
    }
    AmiAlias parsed = new AmiAlias(family, alias.substring(at + 1));
    if (parsed.windows().isPresent() && !parsed.latest()) {
      throw new CloudProviderException(Kind.INVALID_REQUEST,
          "amiSelectorTerms alias '" + alias + "': windows families may only specify version 'latest'");
    }
    return parsed;
  }

  /** Whether {@code family} is an alias family this resolves: {@link #FAMILIES} or a {@link WindowsFamily}. */
  public static boolean known(String family) {
    return FAMILIES.contains(family) || WindowsFamily.of(family).map(w -> w.aliasFamily().equals(family)).orElse(false);
  }

  /** The Windows family the alias names, if it is one. */
  public Optional<WindowsFamily> windows() {
    return WindowsFamily.of(family).filter(w -> w.aliasFamily().equals(family));
  }

  /** The EC2 architectures the family publishes images for, in the order they are resolved: Windows is x86_64 only. */
  public List<String> architectures() {
    return windows().isPresent() ? List.of("x86_64") : ARCHITECTURES;
  }

  /**
   * Throws {@link Kind#INVALID_REQUEST} when AWS publishes no images of the family for Kubernetes minor version
   * {@code k8s} (Windows Server 2025 before 1.35), as Karpenter refuses such an alias rather than finding nothing.
   */
  public void requireImagesFor(String k8s) {
    windows().filter(w -> minor(k8s) < w.minimumKubernetesMinor()).ifPresent(w -> {
      throw new CloudProviderException(Kind.INVALID_REQUEST, "amiSelectorTerms alias '" + family + "@" + version + "': Windows Server "
          + w.year() + " requires Kubernetes 1." + w.minimumKubernetesMinor() + " or higher, the cluster runs " + k8s);
    });
  }

  private static int minor(String k8s) {
    try {
      return Integer.parseInt(k8s.substring(k8s.indexOf('.') + 1));
    } catch (RuntimeException e) {
      return Integer.MAX_VALUE; // an unreadable version is left to the parameter lookup, which finds nothing
    }
  }

  /**
   * Checks the rule every provider applies before resolving: an alias must be the only term (Karpenter's CRD
   * validation; an alias also picks the AMI family, which other terms could contradict). Throws
   * {@link Kind#INVALID_REQUEST}.
   */
  public static void validate(List<AmiSelectorTerm> terms) {
    boolean anyAlias = terms.stream().anyMatch(t -> t.alias() != null);
    if (!anyAlias) {
      return;
    }
    if (terms.size() > 1) {
      throw new CloudProviderException(Kind.INVALID_REQUEST,
          "amiSelectorTerms: an alias cannot be combined with other terms; use one alias term alone");
    }
    AmiSelectorTerm term = terms.getFirst();
    if (term.id() != null || term.name() != null || term.owner() != null || !term.tags().isEmpty() || term.ssmParameter() != null) {
      throw new CloudProviderException(Kind.INVALID_REQUEST,
          "amiSelectorTerms: a term with an alias cannot also set id, name, owner, tags or ssmParameter");
    }
    parse(term.alias());
  }

  public boolean latest() {
    return LATEST.equals(version);
  }

  /** One SSM parameter an alias reads, with the kinds of instance type its image is for. */
  public record Parameter(String name, List<ImageVariant> variants) {}

  /**
   * Every parameter the alias reads for Kubernetes minor version {@code k8s}, as Karpenter's AWS provider reads them:
   * the standard image per architecture and the accelerated ones (AL2023 {@code nvidia} on both architectures and
   * {@code neuron} on x86_64; AL2's one {@code gpu} image on x86_64, for NVIDIA and Neuron types; Bottlerocket's
   * {@code -nvidia} images, its standard x86_64 image serving Neuron types too). A Windows family has its one image,
   * for every x86_64 type.
   */
  public List<Parameter> parameters(String root, String k8s) {
    List<ImageVariant> standard = List.of(ImageVariant.STANDARD);
    List<ImageVariant> nvidia = List.of(ImageVariant.NVIDIA);
    return switch (family) {
      case "al2023" -> List.of(
          new Parameter(parameter(root, "x86_64", STANDARD, k8s), standard),
          new Parameter(parameter(root, "x86_64", NVIDIA, k8s), nvidia),
          new Parameter(parameter(root, "x86_64", NEURON, k8s), List.of(ImageVariant.NEURON)),
          new Parameter(parameter(root, "arm64", STANDARD, k8s), standard),
          new Parameter(parameter(root, "arm64", NVIDIA, k8s), nvidia));
      case "al2" -> List.of(
          new Parameter(parameter(root, "x86_64", STANDARD, k8s), standard),
          new Parameter(parameter(root, "arm64", STANDARD, k8s), standard),
          new Parameter(parameter(root, "x86_64", GPU, k8s), List.of(ImageVariant.NEURON, ImageVariant.NVIDIA)));
      case "bottlerocket" -> List.of(
          new Parameter(parameter(root, "x86_64", STANDARD, k8s), List.of(ImageVariant.STANDARD, ImageVariant.NEURON)),
          new Parameter(parameter(root, "arm64", STANDARD, k8s), standard),
          new Parameter(parameter(root, "x86_64", NVIDIA, k8s), nvidia),
          new Parameter(parameter(root, "arm64", NVIDIA, k8s), nvidia));
      default -> architectures().stream().map(arch -> new Parameter(parameter(root, arch, k8s), List.<ImageVariant>of())).toList();
    };
  }

  /** The parameter holding the standard image id for EC2 architecture {@code arch} and Kubernetes version {@code k8s}. */
  public String parameter(String root, String arch, String k8s) {
    return parameter(root, arch, STANDARD, k8s);
  }

  /**
   * The parameter holding the image id of one flavour of the family's images ({@link #STANDARD}, {@link #NVIDIA},
   * {@link #NEURON}; AL2's accelerated image is {@link #GPU}) for EC2 architecture {@code arch} and Kubernetes
   * version {@code k8s}, by the paths AWS publishes them under.
   */
  public String parameter(String root, String arch, String flavour, String k8s) {
    String base = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
    return base + switch (family) {
      case "al2023" -> "/eks/optimized-ami/" + k8s + "/amazon-linux-2023/" + arch + "/" + flavour + "/"
          + (latest() ? "recommended" : "amazon-eks-node-al2023-" + arch + "-" + flavour + "-" + k8s + "-" + version) + "/image_id";
      case "al2" -> {
        String kind = GPU.equals(flavour) ? "gpu" : "arm64".equals(arch) ? "arm64" : "";
        yield "/eks/optimized-ami/" + k8s + "/amazon-linux-2" + (kind.isEmpty() ? "" : "-" + kind) + "/"
            + (latest() ? "recommended" : "amazon-eks-" + (kind.isEmpty() ? "" : kind + "-") + "node-" + k8s + "-" + version) + "/image_id";
      }
      case "bottlerocket" -> "/bottlerocket/aws-k8s-" + k8s + (NVIDIA.equals(flavour) ? "-nvidia" : "") + "/" + arch + "/"
          + (latest() ? LATEST : version.startsWith("v") ? version.substring(1) : version) + "/image_id";
      default -> windows().map(w -> windowsParameter(w, k8s))
          .orElseThrow(() -> new IllegalStateException("parse admits only known families, not " + family));
    };
  }

  /** Windows images have one parameter, the latest, per Kubernetes version and no architecture in its name. */
  private static String windowsParameter(WindowsFamily windows, String k8s) {
    return "/ami-windows-latest/Windows_Server-" + windows.year() + "-English-Core-EKS_Optimized-" + k8s + "/image_id";
  }
}
