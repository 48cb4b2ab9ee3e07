package dev.farrier.activities.drain;

import dev.farrier.activities.views.PodViews;
import dev.farrier.workflows.activities.DrainRequest;
import dev.farrier.model.WellKnown;
import dev.farrier.planner.Tolerations;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;

/**
 * What a drain pass may do to each pod of the node: the one place the drain's pod rules live ({@link DrainOrder} decides
 * when, group by group).
 * <ul>
 *   <li>Never touched, even by a forced drain, and not waited for: mirror pods (the kubelet owns them; the API server
 *       refuses to evict them), finished pods, and pods that tolerate {@code karpenter.sh/disrupted:NoSchedule} (the
 *       taint does not keep them off the node, so an evicted one could come straight back), as Karpenter v1 leaves
 *       them.</li>
 *   <li>DaemonSet pods leave with the other pods, in their own drain groups: the replacement taints the node
 *       {@code karpenter.sh/disrupted:NoSchedule} before it drains, which keeps their DaemonSet from recreating them
 *       there. When the instance is gone they are left to the Node's deletion instead.</li>
 *   <li>When the instance is confirmed gone ({@link DrainRequest#instanceGone()}) every other pod is already dead: it
 *       is deleted at once (grace 0), past PDBs and do-not-disrupt, so its controller recreates it elsewhere now.</li>
 *   <li>A forced drain ({@link DrainRequest#bypassPdb()}: terminationGracePeriod expired, or an operator's force-drain)
 *       deletes every other pod past its PodDisruptionBudget and do-not-disrupt; a pod already terminating is deleted
 *       at once (its kubelet may be gone).</li>
 *   <li>Otherwise: a terminating pod is waited for; a {@code karpenter.sh/do-not-disrupt} pod is held; a pod without a
 *       controller is held when the request says so (an eviction would delete it for good); every other pod is
 *       evicted through the Eviction API, which checks its PodDisruptionBudgets.</li>
 * </ul>
 */
public final class DrainRules {
  /** What the pass does to one pod. */
  public enum Action {
    /** Mirror, finished or tolerating pod (or a DaemonSet pod of a gone instance): left alone, not waited for. */
    IGNORE,
    /** Already terminating: waited for. */
    WAIT,
    /** {@code karpenter.sh/do-not-disrupt}: held until the drain is forced. */
    HOLD_DO_NOT_DISRUPT,
    /** No controller would recreate it: held until the drain is urgent or forced. */
    HOLD_NO_CONTROLLER,
    /** Evict through the Eviction API (PDBs apply). */
    EVICT,
    /** Delete past its PDB, with the pod's own grace period. */
    DELETE,
    /** Delete past its PDB at once (grace 0): it was already terminating, or its instance is gone. */
    DELETE_NOW
  }

  private DrainRules() {}

  public static Action action(Pod pod, DrainRequest request) {
    if (!mustLeave(pod, request)) {
      return Action.IGNORE;
    }
    boolean terminating = terminating(pod);
    if (request.instanceGone()) {
      return Action.DELETE_NOW;
    }
    if (request.bypassPdb()) {
      return terminating ? Action.DELETE_NOW : Action.DELETE;
    }
    if (terminating) {
      return Action.WAIT;
    }
    if ("true".equals(annotations(pod).get(WellKnown.DO_NOT_DISRUPT_ANNOTATION))) {
      return Action.HOLD_DO_NOT_DISRUPT;
    }
    if (request.holdUnowned() && !hasController(pod)) {
      return Action.HOLD_NO_CONTROLLER;
    }
    return Action.EVICT;
  }

  /** The pods that must leave before the node can go, in the order the node lists them. */
  public static List<Pod> mustLeave(List<Pod> pods, DrainRequest request) {
    return pods.stream().filter(pod -> mustLeave(pod, request)).toList();
  }

  static boolean mustLeave(Pod pod, DrainRequest request) {
    return !PodViews.terminal(pod)
        && !annotations(pod).containsKey(PodViews.MIRROR_ANNOTATION)
        && !toleratesDisrupted(pod)
        && !(request.instanceGone() && ownedByDaemonSet(pod));
  }

  /** Deleted (or evicted) and on its way out: the kubelet is stopping it. */
  static boolean terminating(Pod pod) {
    return pod.getMetadata().getDeletionTimestamp() != null;
  }

  static boolean ownedByDaemonSet(Pod pod) {
    return "DaemonSet".equals(PodViews.ownerKind(pod));
  }

  private static boolean toleratesDisrupted(Pod pod) {
    return Tolerations.toleratesDisrupted(PodViews.tolerations(pod.getSpec()));
  }

  /** A controller (ReplicaSet, StatefulSet, Job, ...) owns the pod and will recreate it elsewhere. */
  static boolean hasController(Pod pod) {
    return pod.getMetadata().getOwnerReferences() != null
        && pod.getMetadata().getOwnerReferences().stream().anyMatch(o -> Boolean.TRUE.equals(o.getController()));
  }

  private static Map<String, String> annotations(Pod pod) {
    return pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
  }
}
