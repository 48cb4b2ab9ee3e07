package dev.farrier.model;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The pods a NodeClaim was created for, as its {@link WellKnown#PLANNED_PODS_ANNOTATION} holds them: their UIDs,
 * comma-separated. Written when the claim is created; read by the planning activity (the room the claim holds for them)
 * and by the provisioning-latency benchmark (the launch planned for each pod).
 */
public final class PlannedPods {
  /** A batch takes at most 1,000 pods; UIDs are 36 characters: well under the 256 KiB Kubernetes allows annotations. */
  public static final int MAX = 1_000;

  private PlannedPods() {}

  /** The annotation's value for {@code pods}: those with a UID, at most {@link #MAX}; empty when none has one. */
  public static String format(List<PodRef> pods) {
    return pods.stream().map(PodRef::uid).filter(uid -> uid != null && !uid.isBlank()).limit(MAX)
        .collect(Collectors.joining(","));
  }

  /** The UIDs the annotation among {@code annotations} names, in its order; none when it is absent or blank. */
  public static List<String> uids(Map<String, String> annotations) {
    String value = annotations == null ? null : annotations.get(WellKnown.PLANNED_PODS_ANNOTATION);
    if (value == null || value.isBlank()) {
      return List.of();
    }
    return Arrays.stream(value.split(",")).filter(uid -> !uid.isEmpty()).toList();
  }
}
