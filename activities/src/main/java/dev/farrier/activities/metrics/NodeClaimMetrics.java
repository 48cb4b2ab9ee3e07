package dev.farrier.activities.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;

/**
 * Karpenter's NodeClaim and Node counters ({@link MetricCatalog}), recorded by the activities where each fact happens
 * (never in workflow code, which replays).
 */
public final class NodeClaimMetrics {
  /** The created reason of a claim a provisioning batch asked for (Karpenter's word). */
  public static final String PROVISIONED = "provisioned";

  private final MeterRegistry meters;

  public NodeClaimMetrics(MeterRegistry meters) {
    this.meters = meters;
  }

  /**
   * A NodeClaim was created (not found existing): {@code reason} is provisioned or the disruption it replaces for.
   * Farrier never relaxes minValues (a launch that cannot meet them fails), so {@code min_values_relaxed} is false.
   */
  public void created(String reason, String nodePool) {
    MetricCatalog.NODECLAIMS_CREATED.counter(meters, label(reason), nodePool, "false").increment();
  }

  /** A NodeClaim's termination finished (this call removed its finalizer). */
  public void terminated(String nodePool, String capacityType, String zone) {
    MetricCatalog.NODECLAIMS_TERMINATED.counter(meters, nodePool, capacityType, zone).increment();
  }

  /** A replacement (disruption) of a NodeClaim started. */
  public void disrupted(String reason, String nodePool, String capacityType) {
    MetricCatalog.NODECLAIMS_DISRUPTED.counter(meters, label(reason), nodePool, capacityType).increment();
  }

  /** A Node registered to its NodeClaim (this call added its termination finalizer). */
  public void nodeCreated(String nodePool, String zone) {
    MetricCatalog.NODES_CREATED.counter(meters, nodePool, zone).increment();
  }

  /** A Node's termination finished (this call removed its finalizer). */
  public void nodeTerminated(String nodePool, String zone) {
    MetricCatalog.NODES_TERMINATED.counter(meters, nodePool, zone).increment();
  }

  /** Karpenter's label words are snake case ({@code SpotInterruption} becomes {@code spot_interruption}); null is empty. */
  public static String label(String value) {
    if (value == null) {
      return "";
    }
    return value.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
  }
}
