package dev.farrier.activities.kube;

import io.fabric8.kubernetes.api.model.Pod;

/**
 * A pending pod the kube-scheduler is placing by preemption: it chose a node ({@code status.nominatedNodeName}) and
 * evicts lower-priority pods there (a headroom's placeholders) to make room. Such a pod needs no new node, and a launch
 * for it would be wasted; Karpenter treats it as scheduled too ({@code IsPreempting} keeps it out of provisioning). If
 * the preemption fails the scheduler clears the nomination and the pod is pending as any other again.
 */
public final class Preemption {
  private Preemption() {}

  public static boolean nominated(Pod pod) {
    return pod.getStatus() != null && pod.getStatus().getNominatedNodeName() != null && !pod.getStatus().getNominatedNodeName().isEmpty();
  }
}
