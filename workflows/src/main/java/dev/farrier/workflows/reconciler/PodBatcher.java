package dev.farrier.workflows.reconciler;

import dev.farrier.model.PodRef;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reconciler's pending-pod state: pods queued for the next batch and the pods of batches in flight, deduplicated
 * by UID across both. A batch opens with its first pod and is due {@code idle} after the last pod arrived or
 * {@code max} after it opened, whichever comes first. Pure: time is passed in.
 */
final class PodBatcher {
  private final Map<String, PodRef> queued = new LinkedHashMap<>();
  private final Map<String, Set<String>> inFlight = new LinkedHashMap<>();
  /**
   * Batches carried from a previous run: in flight until their {@code batchClosed} signal, or at the latest until a time
   * (the signal is best effort: a batch that could not tell its reconciler never sends it again).
   */
  private final Map<String, Long> releaseAt = new LinkedHashMap<>();
  /**
   * Pods offered again while their batch was in flight, by identity: the kube-scheduler left them unbound after the
   * batch planned them (it filled their node with other pods). Queued when that batch ends.
   */
  private final Map<String, PodRef> offeredInFlight = new LinkedHashMap<>();
  private long openedAt;
  private long lastArrivalAt;
  private long arrivals;

  /**
   * Queues the pods not already queued or in flight; returns how many were new. A pod in flight is remembered and queued
   * when its batch ends, not at the next offer after that (the informer's resync, up to 30 s later).
   */
  int offer(List<PodRef> pods, long now) {
    release(now);
    int added = 0;
    for (PodRef pod : pods) {
      String id = identity(pod);
      if (queued.containsKey(id)) {
        continue;
      }
      if (inFlight.values().stream().anyMatch(batch -> batch.contains(id))) {
        offeredInFlight.put(id, pod);
        continue;
      }
      added += queue(id, pod, now);
    }
    if (added > 0) {
      arrivals++;
    }
    return added;
  }

  private int queue(String id, PodRef pod, long now) {
    if (queued.isEmpty()) {
      openedAt = now;
    }
    queued.put(id, pod);
    lastArrivalAt = now;
    return 1;
  }

  /** A batch left the in-flight set: the pods offered again while it ran are queued. */
  private void ended(Set<String> batch, long now) {
    if (batch == null || offeredInFlight.isEmpty()) {
      return;
    }
    int added = 0;
    for (String id : batch) {
      PodRef pod = offeredInFlight.remove(id);
      if (pod != null && !queued.containsKey(id)) {
        added += queue(id, pod, now);
      }
    }
    if (added > 0) {
      arrivals++;
    }
  }

  /** Changes whenever new pods were queued: the main loop waits for it to move. */
  long arrivals() {
    return arrivals;
  }

  boolean isOpen() {
    return !queued.isEmpty();
  }

  /** When the open batch is due; {@link Long#MAX_VALUE} when none is open. */
  long dueAt(long idleMillis, long maxMillis) {
    if (queued.isEmpty()) {
      return Long.MAX_VALUE;
    }
    return Math.min(lastArrivalAt + idleMillis, openedAt + maxMillis);
  }

  boolean isDue(long now, long idleMillis, long maxMillis) {
    return now >= dueAt(idleMillis, maxMillis);
  }

  /**
   * Takes up to {@code maxPods} of the queued pods, oldest first, as one batch and marks them in flight under
   * {@code batchId}. The rest stay queued and the batch stays due, so they go out as the next batch at once.
   */
  List<PodRef> dispatch(String batchId, int maxPods) {
    List<PodRef> pods = new ArrayList<>();
    var it = queued.values().iterator();
    while (it.hasNext() && pods.size() < maxPods) {
      pods.add(it.next());
      it.remove();
    }
    Set<String> ids = new HashSet<>();
    pods.forEach(pod -> ids.add(identity(pod)));
    inFlight.put(batchId, ids);
    return pods;
  }

  /** Takes over a batch a previous run left in flight, until {@code releaseAtMillis}. */
  void adopt(CarriedBatch batch) {
    inFlight.put(batch.batchId(), new HashSet<>(batch.podIds()));
    releaseAt.put(batch.batchId(), batch.releaseAtMillis());
  }

  /** The batches in flight, for a continue-as-new: adopted ones keep their release time, own ones get {@code release}. */
  List<CarriedBatch> carry(long release) {
    List<CarriedBatch> carried = new ArrayList<>();
    inFlight.forEach((id, pods) -> carried.add(new CarriedBatch(id, pods.stream().sorted().toList(), releaseAt.getOrDefault(id, release))));
    return carried;
  }

  private void release(long now) {
    releaseAt.entrySet().removeIf(e -> {
      if (e.getValue() <= now) {
        ended(inFlight.remove(e.getKey()), now);
        return true;
      }
      return false;
    });
  }

  /** The batch finished (or never started): its pods may be queued again, and those offered while it ran are. */
  void completed(String batchId, long now) {
    releaseAt.remove(batchId);
    ended(inFlight.remove(batchId), now);
  }

  /**
   * Some pods of a batch in flight are done with it (their launches closed before the batch did): they leave it, and
   * those offered again while it ran are queued now.
   */
  void released(String batchId, List<PodRef> pods, long now) {
    Set<String> batch = inFlight.get(batchId);
    if (batch == null) {
      return;
    }
    Set<String> left = new HashSet<>();
    for (PodRef pod : pods) {
      String id = identity(pod);
      if (batch.remove(id)) {
        left.add(id);
      }
    }
    ended(left, now);
  }

  /** Puts a batch that could not start back at the front of the queue, due at once. */
  void requeue(String batchId, List<PodRef> pods, long now) {
    inFlight.remove(batchId);
    pods.forEach(pod -> offeredInFlight.remove(identity(pod)));
    Map<String, PodRef> front = new LinkedHashMap<>();
    pods.forEach(pod -> front.put(identity(pod), pod));
    front.putAll(queued);
    queued.clear();
    queued.putAll(front);
    openedAt = Long.MIN_VALUE / 2;
    lastArrivalAt = now;
  }

  List<String> inFlightBatches() {
    return List.copyOf(inFlight.keySet());
  }

  List<PodRef> queued() {
    return List.copyOf(queued.values());
  }

  /** The oldest {@code max} queued pods, for a continue-as-new whose input must stay small. */
  List<PodRef> queued(int max) {
    return queued.values().stream().limit(max).toList();
  }

  int queuedCount() {
    return queued.size();
  }

  private static String identity(PodRef pod) {
    return pod.uid() != null ? pod.uid() : pod.key();
  }
}
