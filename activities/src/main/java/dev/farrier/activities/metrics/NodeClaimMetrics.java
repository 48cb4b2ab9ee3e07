package dev.farrier.activities.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;

/**
 * Karpenter's NodeClaim counters, named {@code farrier_...} and labelled as Karpenter labels them, recorded by the
 * activities where each fact happens (never in workflow code, which replays).
 */
public final class NodeClaimMetrics {
  /**
   * Not Karpenter's {@code nodeclaims_created}: the Prometheus Java client (1.x) reserves the {@code _created} suffix
   * for a counter's creation time and silently exported {@code farrier_nodeclaims_total} under that name.
   */
  public static final String CREATED = "farrier.nodeclaims.creations";
  public static final String TERMINATED = "farrier.nodeclaims.terminated";
  public static final String DISRUPTED = "farrier.nodeclaims.disrupted";
  /** The created reason of a claim a provisioning batch asked for (Karpenter's word). */
  public static final String PROVISIONED = "provisioned";

  private final MeterRegistry meters;

  public NodeClaimMetrics(MeterRegistry meters) {
    this.meters = meters;
  }

  /** A NodeClaim was created (not found existing): {@code reason} is provisioned or the disruption it replaces for. */
  public void created(String reason, String nodePool) {
    Counter.builder(CREATED).description("NodeClaims created by Farrier, by reason and owning NodePool.")
        .tags("reason", label(reason), "nodepool", label(nodePool)).register(meters).increment();
  }

  /** A NodeClaim's termination finished (this call removed its finalizer). */
  public void terminated(String nodePool) {
    Counter.builder(TERMINATED).description("NodeClaims terminated by Farrier, by owning NodePool.")
        .tags("nodepool", label(nodePool)).register(meters).increment();
  }

  /** A replacement (disruption) of a NodeClaim started. */
  public void disrupted(String reason, String nodePool, String capacityType) {
    Counter.builder(DISRUPTED).description("NodeClaims disrupted by Farrier, by reason, owning NodePool and capacity type.")
        .tags("reason", label(reason), "nodepool", label(nodePool), "capacity_type", label(capacityType))
        .register(meters).increment();
  }

  /** Karpenter's label words are snake case ({@code SpotInterruption} becomes {@code spot_interruption}); null is empty. */
  public static String label(String value) {
    if (value == null) {
      return "";
    }
    return value.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
  }
}
