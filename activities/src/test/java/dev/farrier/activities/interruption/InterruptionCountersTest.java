package dev.farrier.activities.interruption;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.farrier.activities.metrics.MetricCatalog;
import dev.farrier.workflows.activities.InterruptionKind;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Karpenter's message types and the time a notice waited on the queue, from the event's time to this clock. */
class InterruptionCountersTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

  @Test
  void aNoticeCountsUnderKarpentersWordAndItsTimeOnTheQueue() {
    var meters = new SimpleMeterRegistry();
    var counters = new InterruptionCounters(meters, Clock.fixed(NOW, ZoneOffset.UTC));
    counters.notice(InterruptionKind.SpotInterruption, NOW.minusSeconds(4));
    counters.notice(InterruptionKind.ScheduledChange, NOW.plusSeconds(10));
    counters.ignored();
    String received = MetricCatalog.INTERRUPTION_RECEIVED.registeredName();
    assertEquals(1, meters.get(received).tag("message_type", "spot_interrupted").counter().count());
    assertEquals(1, meters.get(received).tag("message_type", "scheduled_change").counter().count());
    assertEquals(1, meters.get(received).tag("message_type", "no_op").counter().count());
    var onQueue = meters.get(MetricCatalog.INTERRUPTION_QUEUE_DURATION.registeredName()).timer();
    assertEquals(2, onQueue.count());
    assertEquals(4, onQueue.totalTime(TimeUnit.SECONDS), 1e-9, "an event time ahead of the clock counts 0");
  }
}
