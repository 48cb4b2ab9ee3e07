package dev.farrier.activities.interruption;

import dev.farrier.activities.metrics.NodeClaimMetrics;
import dev.farrier.workflows.activities.InterruptionKind;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What this worker's interruption activities saw since it started, as Karpenter's interruption metrics:
 * {@value #RECEIVED} by {@code message_type} (the notice's kind in snake case, {@code ignored} for events that need
 * nothing, {@code malformed} for messages that are no EventBridge event Farrier knows), {@value #DELETED}, and
 * Farrier's {@value #DELETE_FAILURES}. Malformed messages are never retried, so their count (logged with every
 * malformed message, and by the worker when it stops) is where a misrouted EventBridge rule shows.
 */
public final class InterruptionCounters {
  public static final String RECEIVED = "farrier.interruption.received.messages";
  public static final String DELETED = "farrier.interruption.deleted.messages";
  public static final String DELETE_FAILURES = "farrier.interruption.delete.failures";
  static final String IGNORED = "ignored";
  static final String MALFORMED = "malformed";

  private final MeterRegistry meters;
  private final Counter ignored;
  private final Counter malformed;
  private final Counter deleted;
  private final Counter deleteFailures;

  public InterruptionCounters(MeterRegistry meters) {
    this.meters = meters;
    this.ignored = received(IGNORED);
    this.malformed = received(MALFORMED);
    this.deleted = Counter.builder(DELETED).description("Interruption messages deleted from the queue.").register(meters);
    this.deleteFailures = Counter.builder(DELETE_FAILURES).description("Interruption message deletions the queue refused (they come back).")
        .register(meters);
  }

  private Counter received(String messageType) {
    return Counter.builder(RECEIVED).description("Interruption messages received from the queue, by message type.")
        .tag("message_type", messageType).register(meters);
  }

  public void notice(InterruptionKind kind) {
    received(NodeClaimMetrics.label(kind.name())).increment();
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
    return (long) meters.find(RECEIVED).counters().stream().mapToDouble(Counter::count).sum();
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
