package dev.farrier.model;

import java.util.List;

/**
 * Pending pods the planner expects to land on capacity that exists or is already being launched (a Node, or an
 * in-flight NodeClaim named in {@code node}): no new claim is made for them; the kube-scheduler binds them.
 */
public record ExistingPlacement(String node, List<PodRef> pods) {
  public ExistingPlacement {
    pods = pods == null ? List.of() : List.copyOf(pods);
  }
}
