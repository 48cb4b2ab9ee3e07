package dev.farrier.activities.disruption;

import dev.farrier.activities.crd.NodeClaim;
import dev.farrier.activities.crd.NodeClaimStatus;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.kube.ObjectNotFoundException;
import dev.farrier.activities.views.PodViews;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps {@code status.lastPodEventTime} of Farrier's NodeClaims, as Karpenter v1's pod-events controller does: the last
 * time a pod was bound to the claim's node (its PodScheduled time) or left it (terminal, terminating or deleted: the
 * time it was seen). Consolidation counts {@code consolidateAfter} from it. Events are gathered per node as the pod
 * informer reports them ({@link #observed}) and written by {@link #flush}; a claim is written only when the event is at
 * least {@link #DEDUPE} later than what it has, so a busy node costs a write every few seconds, not one per pod.
 */
public final class PodEventRecorder {
  private static final Logger log = LoggerFactory.getLogger(PodEventRecorder.class);
  /** Events closer than this to the stored time are not written (Karpenter's dedupe timeout). */
  public static final Duration DEDUPE = Duration.ofSeconds(5);

  private final NodeClaimStore claims;
  private final Clock clock;
  private final Map<String, Instant> pending = new HashMap<>();

  public PodEventRecorder(NodeClaimStore claims, Clock clock) {
    this.claims = claims;
    this.clock = clock;
  }

  /**
   * The time of the pod event an informer notification is, or null when it is none: a pod seen bound (its PodScheduled
   * time), moved to another node, or turning terminal or terminating (now). {@code before} is null for an add.
   */
  public Instant eventOf(Pod before, Pod pod) {
    String node = nodeName(pod);
    if (node == null) {
      return null;
    }
    boolean leaving = leaving(pod);
    if (before == null || !Objects.equals(nodeName(before), node)) {
      if (leaving) {
        return clock.instant();
      }
      Long scheduled = PodEventTimes.scheduledAt(pod);
      return scheduled == null ? clock.instant() : Instant.ofEpochMilli(scheduled);
    }
    return leaving && !leaving(before) ? clock.instant() : null;
  }

  /** Notes an event on {@code node}; the latest per node is kept until {@link #flush}. */
  public void observed(String node, Instant at) {
    if (node == null || at == null) {
      return;
    }
    synchronized (pending) {
      pending.merge(node, at, (a, b) -> a.isAfter(b) ? a : b);
    }
  }

  /** A pod deleted from the API: an event now on the node it was bound to. */
  public void deleted(Pod pod) {
    observed(nodeName(pod), clock.instant());
  }

  /**
   * Writes the gathered events to the claims of their nodes (one list of the claims per flush). An event for a node
   * no claim of Farrier's has is dropped; a failed write is kept for the next flush. Returns how many claims were written.
   */
  public int flush() {
    Map<String, Instant> events;
    synchronized (pending) {
      if (pending.isEmpty()) {
        return 0;
      }
      events = new HashMap<>(pending);
      pending.clear();
    }
    Map<String, NodeClaim> byNode = new HashMap<>();
    for (NodeClaim claim : claims.listNodeClaims()) {
      if (claim.getStatus() != null && claim.getStatus().nodeName() != null && claim.getMetadata().getDeletionTimestamp() == null) {
        byNode.put(claim.getStatus().nodeName(), claim);
      }
    }
    int written = 0;
    for (var event : events.entrySet()) {
      NodeClaim claim = byNode.get(event.getKey());
      if (claim == null) {
        continue;
      }
      Instant stored = stored(claim);
      if (stored != null && event.getValue().isBefore(stored.plus(DEDUPE))) {
        continue;
      }
      String name = claim.getMetadata().getName();
      try {
        claims.patchNodeClaimStatus(name, new NodeClaimStatus(null, null, null, null, null, null, event.getValue().toString()));
        written++;
      } catch (ObjectNotFoundException e) {
        // Gone since the list: nothing to keep.
      } catch (RuntimeException e) {
        log.warn("lastPodEventTime not written, next flush tries again nodeclaim={} node={} error={}", name, event.getKey(), e.toString());
        observed(event.getKey(), event.getValue());
      }
    }
    return written;
  }

  private static Instant stored(NodeClaim claim) {
    String text = claim.getStatus().lastPodEventTime();
    if (text == null) {
      return null;
    }
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static String nodeName(Pod pod) {
    String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    return node == null || node.isEmpty() ? null : node;
  }

  /** Terminal (Succeeded, Failed) or terminating: the pod is leaving the node. */
  private static boolean leaving(Pod pod) {
    return pod.getMetadata().getDeletionTimestamp() != null || PodViews.terminal(pod);
  }
}
