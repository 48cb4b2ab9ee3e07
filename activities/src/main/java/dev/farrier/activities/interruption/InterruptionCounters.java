package dev.farrier.activities.interruption;

import dev.farrier.activities.metrics.MetricCatalog;
import dev.farrier.workflows.activities.InterruptionKind;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * What this worker's interruption activities saw since it started, as Karpenter's interruption metrics:
 * {@code karpenter_interruption_received_messages_total} by {@code message_type} (Karpenter's word for the notice's
 * kind, {@code no_op} for events that need nothing, and Farrier's {@code malformed} for messages that are no EventBridge
 * event Farrier knows), {@code karpenter_interruption_deleted_messages_total},
 * {@code karpenter_interruption_message_queue_duration_seconds} (the event's time until it was received), and
 * Farrier's {@code farrier_interruption_delete_failures_total}. Malformed messages are never retried, so their count
 * (logged with every malformed message, and by the worker when it stops) is where a misrouted EventBridge rule shows.
 */
public final class InterruptionCounters {
  static final String IGNORED = "no_op";
  static final String MALFORMED = "malformed";

  private final MeterRegistry meters;
  private final Counter ignored;
  private final Counter malformed;
  private final Counter deleted;
  private final Counter deleteFailures;
  private final Timer onQueue;

  private final Clock clock;

  public InterruptionCounters(MeterRegistry meters) {
    this(meters, Clock.systemUTC());
  }

  public InterruptionCounters(MeterRegistry meters, Clock clock) {
    this.meters = meters;
    this.clock = clock;
    this.ignored = received(IGNORED);
    this.malformed = received(MALFORMED);
    this.deleted = MetricCatalog.INTERRUPTION_DELETED.counter(meters);
    this.deleteFailures = MetricCatalog.INTERRUPTION_DELETE_FAILURES.counter(meters);
    this.onQueue = MetricCatalog.INTERRUPTION_QUEUE_DURATION.timer(meters);
  }

  private Counter received(String messageType) {
    return MetricCatalog.INTERRUPTION_RECEIVED.counter(meters, messageType);
  }

  /** A notice of {@code kind} whose event happened at {@code eventTime} (an event time ahead of this clock counts 0). */
  public void notice(InterruptionKind kind, Instant eventTime) {
    received(messageType(kind)).increment();
    Duration waited = Duration.between(eventTime, clock.instant());
    onQueue.record(waited.isNegative() ? Duration.ZERO : waited);
  }

  /**
   * Karpenter's {@code message_type} words; a state change is {@code instance_state_change} (Karpenter splits it into
   * {@code instance_stopped} and {@code instance_terminated}, Farrier acts on both alike and keeps one word).
   */
  static String messageType(InterruptionKind kind) {
    return switch (kind) {
      case SpotInterruption -> "spot_interrupted";
      case ScheduledChange -> "scheduled_change";
      case InstanceStateChange -> "instance_state_change";
      case CapacityReservationInterruption -> "capacity_reservation_interrupted";
      case RebalanceRecommendation -> "rebalance_recommendation";
    };
  }
  /** Returns the malformed count so far, for the log line. */
  public long malformed() {
    malformed.increment();
    return (long) malformed.count();
  }

  public void ignored() {
    ignored.increment();
  }

  public void deleted(int n, int failures) {
    deleted.increment(n);
    deleteFailures.increment(failures);
  }

  public long receivedCount() {
    return (long) meters.find(MetricCatalog.INTERRUPTION_RECEIVED.registeredName()).counters().stream().mapToDouble(Counter::count).sum();
  }

  private long noticeCount() {
    return receivedCount() - ignoredCount() - malformedCount();
  }

  private long ignoredCount() {
    return (long) ignored.count();
  }

  public long malformedCount() {
    return (long) malformed.count();
  }

  public long deletedCount() {
    return (long) deleted.count();
  }

  @Override
  public String toString() {
    return "received=" + receivedCount() + " notices=" + noticeCount() + " malformed=" + malformedCount() + " ignored=" + ignoredCount()
        + " deleted=" + deletedCount() + " deleteFailures=" + (long) deleteFailures.count();
  }
}
