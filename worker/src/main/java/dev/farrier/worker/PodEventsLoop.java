package dev.farrier.worker;

import dev.farrier.activities.disruption.PodEventRecorder;
import dev.farrier.activities.kube.NodeClaimStore;
import dev.farrier.activities.kube.ClusterCache;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the pods bound to nodes and keeps each Farrier NodeClaim's {@code status.lastPodEventTime}
 * ({@link PodEventRecorder}): the clock consolidation's {@code consolidateAfter} counts from. Events are written every
 * {@link #FLUSH_MILLIS}; runs on the Lease holder only ({@link LeaderLoops}). A pod leaving while no worker leads is
 * not seen; the planner also counts the scheduling times of the pods bound now, and a node that lost a pod unseen is at
 * worst consolidated {@code consolidateAfter} early of the missed event, never while it has pods to move.
 */
@Singleton
public class PodEventsLoop implements LeaderLoops.Loop {
  private static final Logger log = LoggerFactory.getLogger(PodEventsLoop.class);
  static final long FLUSH_MILLIS = 2_000;

  private final ClusterCache cache;
  private final NodeClaimStore claims;
  private PodEventRecorder recorder;
  private ScheduledExecutorService flusher;
  private ResourceEventHandler<Pod> handler;

  public PodEventsLoop(ClusterCache cache, NodeClaimStore claims) {
    this.cache = cache;
    this.claims = claims;
  }

  /**
   * Listens on the cache's pod informer (every pod: an unbound one is no event, a pod bound since it was last seen is an
   * arrival), so the leader keeps one pod watch and one copy of the pods.
   */
  @Override
  public void start() {
    recorder = new PodEventRecorder(claims, Clock.systemUTC());
    flusher = Daemons.scheduler("farrier-pod-events");
    handler = new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod) {
        recorder.observed(pod.getSpec().getNodeName(), recorder.eventOf(null, pod));
      }

      @Override
      public void onUpdate(Pod before, Pod pod) {
        recorder.observed(pod.getSpec().getNodeName(), recorder.eventOf(before, pod));
      }

      @Override
      public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
        recorder.deleted(pod);
      }
    };
    cache.addPodHandler(handler);
    flusher.scheduleWithFixedDelay(this::flush, FLUSH_MILLIS, FLUSH_MILLIS, TimeUnit.MILLISECONDS);
  }

  private void flush() {
    try {
      int written = recorder.flush();
      if (written > 0) {
        log.debug("lastPodEventTime written nodeclaims={}", written);
      }
    } catch (RuntimeException e) {
      // The events of this flush are lost only for nodes whose claims could not be listed; the next pod event comes again.
      log.warn("pod events not written: {}", e.toString());
    }
  }

  @Override
  public boolean stop() {
    if (handler != null) {
      cache.removePodHandler(handler);
      handler = null;
    }
    return Daemons.stop(flusher);
  }
}
