package dev.farrier.activities.drain;

import dev.farrier.activities.kube.PodEvictor;
import dev.farrier.workflows.activities.DrainRequest;
import io.fabric8.kubernetes.api.model.Pod;
import io.temporal.activity.Activity;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The end of a drain pass: before it reports what must still leave the node, it waits a few seconds at most for the
 * pods on their way out (those it evicted, and those already terminating) to be gone. A healthy kubelet (and kwok)
 * removes an evicted pod within a second or two; reported as remaining, it would cost the workflow a poll wait and
 * another pass. A slower pod (a long terminationGracePeriod) is still reported, and the workflow waits for it with its
 * backoff as before. Each look is one bounded LIST, with a heartbeat before each wait.
 */
final class LeavingPods {
  /** Well inside a pass's budget and its 10 s heartbeat timeout. */
  static final Duration WITHIN = Duration.ofSeconds(5);
  static final Duration POLL = Duration.ofMillis(500);

  private final PodEvictor pods;
  private final Clock clock;
  private final Duration within;

  LeavingPods(PodEvictor pods, Clock clock, Duration within) {
    this.pods = pods;
    this.clock = clock;
    this.within = within;
  }

  /** The node's pods that must still leave, once {@code evictedUids} and terminating pods are gone or time is up. */
  List<Pod> mustLeaveOnceGone(DrainRequest request, Set<String> evictedUids) {
    var until = clock.instant().plus(within);
    while (true) {
      List<Pod> mustLeave = DrainRules.mustLeave(pods.listPodsOnNode(request.nodeName()), request);
      long leaving = mustLeave.stream()
          .filter(pod -> evictedUids.contains(pod.getMetadata().getUid()) || DrainRules.terminating(pod)).count();
      if (leaving == 0 || !clock.instant().isBefore(until)) {
        return mustLeave;
      }
      Activity.getExecutionContext().heartbeat("waiting for " + leaving + " pod(s) to leave " + request.nodeName());
      try {
        Thread.sleep(POLL);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return mustLeave;
      }
    }
  }
}
