package dev.farrier.planner;

import dev.farrier.model.Resources;

/**
 * What a node of an instance type gives pods, as the planner sizes claims ({@link KubeletReserve}): for reports
 * outside the planner, such as the scheduling benchmark's price bound, that must agree with it.
 */
public final class NodeAllocatable {
  private NodeAllocatable() {}

  public static Resources of(InstanceTypeView type, KubeletSettings kubelet) {
    return KubeletReserve.allocatable(type.capacity(), kubelet);
  }
}
