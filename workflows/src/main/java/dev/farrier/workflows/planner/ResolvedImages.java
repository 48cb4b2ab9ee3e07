package dev.farrier.workflows.planner;

import java.util.List;

/**
 * The images an EC2NodeClass's {@code amiSelectorTerms} resolve to now for one architecture.
 *
 * @param arch the Kubernetes arch value ({@code amd64}, {@code arm64}), not EC2's {@code x86_64}
 */
public record ResolvedImages(String nodeClassName, String arch, List<String> imageIds) {
  public ResolvedImages {
    imageIds = imageIds == null ? List.of() : List.copyOf(imageIds);
  }
}
