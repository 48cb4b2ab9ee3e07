package dev.farrier.workflows.reconciler;

import dev.farrier.workflows.model.PodRef;
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
  /** Batches carried from a previous run: in flight until a time, since their completion cannot be observed. */
  private final Map<String, Long> releaseAt = new LinkedHashMap<>();
  private long openedAt;
  private long lastArrivalAt;
  private long arrivals;

  /** Queues the pods not already queued or in flight; returns how many were new. */
  int offer(List<PodRef> pods, long now) {
    release(now);
    int added = 0;
    for (PodRef pod : pods) {
      String id = identity(pod);
      if (queued.containsKey(id) || inFlight.values().stream().anyMatch(batch -> batch.contains(id))) {
        continue;
      }
      if (queued.isEmpty()) {
        openedAt = now;
      }
      queued.put(id, pod);
      lastArrivalAt = now;
      added++;
    }
    if (added > 0) {
      arrivals++;
    }
    return added;
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
        inFlight.remove(e.getKey());
        return true;
      }
      return false;
    });
  }

  /** The batch finished (or never started): its pods may be queued again. */
  void completed(String batchId) {
    inFlight.remove(batchId);
    releaseAt.remove(batchId);
  }

  /** Puts a batch that could not start back at the front of the queue, due at once. */
  void requeue(String batchId, List<PodRef> pods, long now) {
    inFlight.remove(batchId);
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
