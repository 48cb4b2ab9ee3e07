package dev.farrier.workflows.planner;

import java.util.List;

/**
 * A summary of the pods bound to a node, enough for disruption decisions.
 *
 * @param total            every pod bound to the node that is not terminal (Succeeded/Failed)
 * @param reschedulable    how many of those need a home elsewhere ({@link PodSpecView#reschedulable()})
 * @param doNotDisruptPods {@code namespace/name} of the pods annotated {@code karpenter.sh/do-not-disrupt: "true"}
 */
public record PodsOnNode(int total, int reschedulable, List<String> doNotDisruptPods) {
  public static final PodsOnNode NONE = new PodsOnNode(0, 0, List.of());

  public PodsOnNode {
    doNotDisruptPods = doNotDisruptPods == null ? List.of() : List.copyOf(doNotDisruptPods);
  }

  /** Summarises the non-terminal pods bound to a node. */
  public static PodsOnNode of(List<PodSpecView> pods) {
    int reschedulable = (int) pods.stream().filter(PodSpecView::reschedulable).count();
    List<String> blocking = pods.stream().filter(PodSpecView::doNotDisrupt).map(p -> p.pod().key()).sorted().toList();
    return new PodsOnNode(pods.size(), reschedulable, blocking);
  }
}
