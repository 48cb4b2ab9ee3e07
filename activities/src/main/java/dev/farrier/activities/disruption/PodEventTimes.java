package dev.farrier.activities.disruption;

import dev.farrier.activities.crd.Conditions;
import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.provisioning.ProvisioningSnapshots;
import dev.farrier.model.PlannedPods;
import dev.farrier.model.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The facts consolidation reads about a node's pods, from the NodeClaim and the pods bound to its Node:
 * when it was initialized, the last pod event, and whether it holds room for pods still on their way to it.
 */
final class PodEventTimes {
  private PodEventTimes() {}

  /** lastTransitionTime of a True Initialized condition, null when none or unreadable. */
  static Long initializedAt(NodeClaim claim) {
    var conditions = claim.getStatus() == null ? List.<dev.farrier.activities.crd.Condition>of() : claim.getStatus().conditionsOrEmpty();
    return Conditions.find(conditions, NodeClaimStatus.INITIALIZED).filter(c -> c.isTrue())
        .map(c -> millis(c.lastTransitionTime())).orElse(null);
  }

  /**
   * The last pod event on the node: the later of {@code status.lastPodEventTime} (kept by the worker's pod-event loop,
   * which also sees pods leave) and the times the pods bound now were scheduled (so a pod that arrived since the loop
   * last wrote still counts). Null when neither is known.
   */
  static Long lastPodEvent(NodeClaim claim, List<Pod> podsOnNode) {
    Long last = claim.getStatus() == null ? null : millis(claim.getStatus().lastPodEventTime());
    for (Pod pod : podsOnNode) {
      Long scheduled = scheduledAt(pod);
      if (scheduled != null && (last == null || scheduled > last)) {
        last = scheduled;
      }
    }
    return last;
  }

  /** When the scheduler bound the pod: its PodScheduled=True condition's lastTransitionTime, null when unknown. */
  static Long scheduledAt(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return null;
    }
    return pod.getStatus().getConditions().stream()
        .filter(c -> "PodScheduled".equals(c.getType()) && "True".equals(c.getStatus()))
        .map(PodCondition::getLastTransitionTime).map(PodEventTimes::millis).filter(m -> m != null).findFirst().orElse(null);
  }

  /**
   * Why the claim holds room for pods not bound to it yet, or null: it was launched for pods
   * ({@link WellKnown#PLANNED_PODS_ANNOTATION}) and is within {@link ProvisioningSnapshots#PROMISE_WINDOW} of its initialization
   * while some pod in the cluster is still unbound (the scheduler may still be binding them), or pods it was launched
   * for still run on a node being disrupted (it is that node's replacement, waiting for the drain).
   * {@code podsBeingDrained} maps the UIDs of the pods on nodes being disrupted to their node; {@code podsUnbound} says
   * whether any pod (not being deleted) waits for a node. With none, the scheduler is binding nothing, so the window
   * ends early: an underutilized node launched moments ago is not held for the rest of the minute.
   */
  static String nominated(NodeClaim claim, Instant now, Map<String, String> podsBeingDrained, boolean podsUnbound) {
    // A set, not Set.of: an annotation repeating a UID must not fail the planning round.
    Set<String> uids = new HashSet<>(PlannedPods.uids(claim.getMetadata().getAnnotations()));
    if (uids.isEmpty()) {
      return null;
    }
    String own = claim.getStatus() == null ? null : claim.getStatus().nodeName();
    // Its own pods are not on their way to it, even while it is itself being disrupted.
    Optional<String> draining = uids.stream().map(podsBeingDrained::get).filter(n -> n != null && !n.equals(own)).sorted().findFirst();
    if (draining.isPresent()) {
      return "launched for pods still on node " + draining.get() + ", which is being disrupted";
    }
    if (podsUnbound && ProvisioningSnapshots.initializedWithin(claim, now, ProvisioningSnapshots.PROMISE_WINDOW)) {
      return "launched for " + uids.size() + (uids.size() == 1 ? " pod" : " pods") + " the scheduler may still be binding (for "
          + ProvisioningSnapshots.PROMISE_WINDOW.toSeconds() + " s after initialization)";
    }
    return null;
  }

  private static Long millis(String rfc3339) {
    if (rfc3339 == null || rfc3339.isBlank()) {
      return null;
    }
    try {
      return java.time.OffsetDateTime.parse(rfc3339).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
