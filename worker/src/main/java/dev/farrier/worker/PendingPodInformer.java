package dev.farrier.worker;

import dev.farrier.activities.kube.ClusterCache;
import dev.farrier.activities.kube.Preemption;
import dev.farrier.model.PodRef;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signals the reconciler with the unbound pods the scheduler marked Unschedulable, listening on the cluster cache's pod
 * informer (one pod watch and one copy of the pods per worker, shared with the planners and {@link PodEventsLoop}).
 * Signals are coalesced every 250 ms; every {@link #RESYNC_MILLIS} the unbound pods of the cache are looked at again
 * and the unschedulable ones re-signalled (the reconciler ignores pods already queued or being provisioned for), so a
 * lost signal costs at most one resync period.
 */
@Singleton
public class PendingPodInformer implements LeaderLoops.Loop {
  private static final Logger log = LoggerFactory.getLogger(PendingPodInformer.class);
  private static final long RESYNC_MILLIS = 30_000;
  private static final long FLUSH_MILLIS = 250;
  static final int SIGNAL_CHUNK = 500;

  private final ClusterCache cache;
  private final ReconcilerClient reconciler;
  private final Map<String, PodRef> queued = new LinkedHashMap<>();
  private ScheduledExecutorService flusher;
  private ResourceEventHandler<Pod> handler;

  public PendingPodInformer(ClusterCache cache, ReconcilerClient reconciler) {
    this.cache = cache;
    this.reconciler = reconciler;
  }

  @Override
  public void start() {
    flusher = Daemons.scheduler("farrier-pending-pods");
    handler = new AddedOrUpdated<>(this::consider);
    cache.addPodHandler(handler);
    flusher.scheduleWithFixedDelay(this::flush, FLUSH_MILLIS, FLUSH_MILLIS, TimeUnit.MILLISECONDS);
    flusher.scheduleWithFixedDelay(this::resync, RESYNC_MILLIS, RESYNC_MILLIS, TimeUnit.MILLISECONDS);
  }

  static boolean unschedulable(Pod pod) {
    if (pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return false;
    }
    if (pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty() || Preemption.nominated(pod)) {
      return false;
    }
    return pod.getStatus().getConditions().stream().anyMatch(c -> "PodScheduled".equals(c.getType())
        && "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason()));
  }

  private void consider(Pod pod) {
    if (!unschedulable(pod)) {
      return;
    }
    var ref = new PodRef(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), pod.getMetadata().getUid());
    synchronized (queued) {
      queued.put(ref.uid(), ref);
    }
  }

  private void resync() {
    try {
      cache.unboundPods().forEach(this::consider);
    } catch (RuntimeException e) {
      // Not synced (yet, or any more): the next resync looks again.
      log.warn("pending pods not looked at again: {}", e.toString());
    }
  }

  private void flush() {
    List<PodRef> batch;
    synchronized (queued) {
      if (queued.isEmpty()) {
        return;
      }
      batch = new ArrayList<>(queued.values());
      queued.clear();
    }
    // Chunks keep every signal far below Temporal's payload limit, whatever the backlog.
    for (int from = 0; from < batch.size(); from += SIGNAL_CHUNK) {
      var chunk = batch.subList(from, Math.min(batch.size(), from + SIGNAL_CHUNK));
      try {
        reconciler.signalPending(chunk);
        log.info("signalled pending pods count={} first={}", chunk.size(), chunk.getFirst().key());
      } catch (RuntimeException e) {
        // Not lost: the next resync sees the pods still pending and queues them again.
        log.warn("signalling {} pending pods failed, retrying on resync: {} (cause: {})", chunk.size(), e.toString(),
            e.getCause() == null ? "none" : e.getCause().toString());
      }
    }
  }

  @Override
  public boolean stop() {
    if (handler != null) {
      cache.removePodHandler(handler);
      handler = null;
    }
    boolean stopped = Daemons.stop(flusher);
    synchronized (queued) {
      queued.clear();
    }
    return stopped;
  }
}
