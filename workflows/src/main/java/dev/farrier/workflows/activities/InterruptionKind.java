package dev.farrier.workflows.activities;

/**
 * The EventBridge events Farrier acts on. The name is the reason a replacement carries in its search attributes
 * and Events ({@code FarrierReason=SpotInterruption}).
 */
public enum InterruptionKind {
  /** {@code EC2 Spot Instance Interruption Warning}: the instance goes away in about two minutes. */
  SpotInterruption(true),
  /** {@code AWS Health Event}, category scheduledChange, service EC2: maintenance will stop or retire the instance. */
  ScheduledChange(true),
  /** {@code EC2 Instance State-change Notification}: stopping, stopped, shutting-down or terminated. */
  InstanceStateChange(true),
  /**
   * {@code EC2 Capacity Reservation Instance Interruption Warning}: the instance's capacity reservation (a Capacity
   * Block reaching its end) takes it back; drained and replaced like a spot interruption, as Karpenter does.
   */
  CapacityReservationInterruption(true),
  /** {@code EC2 Instance Rebalance Recommendation}: elevated risk of a spot interruption; an Event, and opt-in replacement. */
  RebalanceRecommendation(false);

  private final boolean urgent;

  InterruptionKind(boolean urgent) {
    this.urgent = urgent;
  }

  /** Whether the node is going away regardless of what Farrier does: drain it now, replace it in parallel. */
  public boolean urgent() {
    return urgent;
  }
}
