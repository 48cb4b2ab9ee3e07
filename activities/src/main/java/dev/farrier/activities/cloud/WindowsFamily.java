package dev.farrier.activities.cloud;

import dev.farrier.model.WellKnown;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The Windows Server AMI families ({@code amiFamily: Windows2019|Windows2022|Windows2025}, aliases
 * {@code windows2019@latest}...), with what sets their nodes apart from Linux ones, as Karpenter's AWS provider has
 * them: the Windows Server build the kubelet labels the node with ({@code node.kubernetes.io/windows-build}), amd64
 * images only, 110 max pods rather than the ENI limit (Windows pods share the node's primary ENI's addresses), and
 * EKS-optimized images from Kubernetes {@link #minimumKubernetesMinor} on.
 */
public enum WindowsFamily {
  WINDOWS_2019("2019", "10.0.17763", 0),
  WINDOWS_2022("2022", "10.0.20348", 0),
  WINDOWS_2025("2025", "10.0.26100", 35);

  /** The os label value of a Windows node. */
  public static final String OS = "windows";
  /** Max pods of a Windows node whose class sets no {@code maxPods}: Karpenter's default without ENI-limited density. */
  public static final int DEFAULT_MAX_PODS = 110;

  private final String year;
  private final String build;
  private final int minimumKubernetesMinor;

  WindowsFamily(String year, String build, int minimumKubernetesMinor) {
    this.year = year;
    this.build = build;
    this.minimumKubernetesMinor = minimumKubernetesMinor;
  }

  /** The family of an {@code amiFamily} ({@code Windows2022}) or an alias family ({@code windows2022}), if Windows. */
  public static Optional<WindowsFamily> of(String family) {
    String lower = family == null ? "" : family.toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(f -> f.aliasFamily().equals(lower)).findFirst();
  }

  public static boolean isWindows(String family) {
    return of(family).isPresent();
  }

  /** The Windows Server release year, as in the image names: {@code 2022}. */
  public String year() {
    return year;
  }

  /** The Windows Server build, the value of {@code node.kubernetes.io/windows-build}. */
  public String build() {
    return build;
  }

  /** {@code windows2022}, as aliases name it. */
  public String aliasFamily() {
    return "windows" + year;
  }

  /** {@code Windows2022}, as {@code amiFamily} names it. */
  public String amiFamily() {
    return "Windows" + year;
  }

  /** The os and windows-build labels of the family's nodes. */
  public Map<String, String> nodeLabels() {
    return Map.of(WellKnown.OS_LABEL, OS, WellKnown.WINDOWS_BUILD_LABEL, build);
  }

  /**
   * The Kubernetes minor version from which AWS publishes the family's EKS-optimized images (0: every version);
   * Karpenter refuses a Windows 2025 alias on clusters before 1.35.
   */
  public int minimumKubernetesMinor() {
    return minimumKubernetesMinor;
  }
}
