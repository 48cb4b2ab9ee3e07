package dev.farrier.planner;

import dev.farrier.model.Taint;
import dev.farrier.model.Toleration;
import dev.farrier.model.WellKnown;
import java.util.List;

/**
 * Kubernetes' taint toleration rules, as the scheduler applies them when placing a pod (and the drain, to leave the pods
 * that tolerate {@code karpenter.sh/disrupted}).
 */
public final class Tolerations {
  private Tolerations() {}

  /** The first taint that keeps the pod off the node, or null. PreferNoSchedule taints never block. */
  static Taint firstUntolerated(List<Taint> taints, List<Toleration> tolerations) {
    for (Taint taint : taints) {
      if ("PreferNoSchedule".equals(taint.effect())) {
        continue;
      }
      if (tolerations.stream().noneMatch(t -> tolerates(t, taint))) {
        return taint;
      }
    }
    return null;
  }

  /** Whether a pod with these tolerations may go on a node with these taints (PreferNoSchedule never blocks). */
  public static boolean toleratesAll(List<Taint> taints, List<Toleration> tolerations) {
    return firstUntolerated(taints, tolerations) == null;
  }

  /**
   * Whether a pod with these tolerations tolerates {@code karpenter.sh/disrupted:NoSchedule}: the drain leaves such a
   * pod on the node (the taint does not keep it off, so an evicted one could come straight back), as Karpenter v1.
   */
  public static boolean toleratesDisrupted(List<Toleration> tolerations) {
    return tolerations.stream().anyMatch(t -> tolerates(t, WellKnown.DISRUPTED_TAINT));
  }

  public static boolean tolerates(Toleration toleration, Taint taint) {
    String effect = toleration.effect();
    if (effect != null && !effect.isEmpty() && !effect.equals(taint.effect())) {
      return false;
    }
    String key = toleration.key();
    boolean exists = "Exists".equals(toleration.operator());
    if (key == null || key.isEmpty()) {
      // An empty key matches every taint, but only with operator Exists.
      return exists;
    }
    if (!key.equals(taint.key())) {
      return false;
    }
    return exists || nullToEmpty(toleration.value()).equals(nullToEmpty(taint.value()));
  }

  static String describe(Taint taint) {
    String value = nullToEmpty(taint.value());
    return taint.key() + (value.isEmpty() ? "" : "=" + value) + ":" + taint.effect();
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
