package dev.farrier.planner;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The images an EC2NodeClass's {@code amiSelectorTerms} resolve to now for one architecture.
 *
 * @param arch the Kubernetes arch value ({@code amd64}, {@code arm64}), not EC2's {@code x86_64}
 */
public record ResolvedImages(String nodeClassName, String arch, List<String> imageIds) {
  public ResolvedImages {
    imageIds = imageIds == null ? List.of() : List.copyOf(imageIds);
  }

  /** The image ids by {@link #key(String, String)}, for one lookup per claim. */
  static Map<String, List<String>> index(List<ResolvedImages> resolved) {
    Map<String, List<String>> images = new HashMap<>();
    for (ResolvedImages r : resolved) {
      images.computeIfAbsent(key(r.nodeClassName(), r.arch()), k -> new ArrayList<>()).addAll(r.imageIds());
    }
    return images;
  }

  static String key(String nodeClassName, String arch) {
    return nodeClassName + "/" + arch;
  }
}
