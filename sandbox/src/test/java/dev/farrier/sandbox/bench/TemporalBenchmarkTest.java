package dev.farrier.sandbox.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.Timestamp;
import io.temporal.api.history.v1.ChildWorkflowExecutionStartedEventAttributes;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.history.v1.StartChildWorkflowExecutionInitiatedEventAttributes;
import io.temporal.api.history.v1.WorkflowTaskCompletedEventAttributes;
import java.util.List;
import org.junit.jupiter.api.Test;

class TemporalBenchmarkTest {
  @Test
  void eachChildsStartIsTimedFromTheFirstAskNotFromItsOwn() {
    List<HistoryEvent> parent = List.of(
        other(1, 999),
        asked(2, 1_000),
        asked(3, 1_000),
        asked(4, 1_500),
        started(5, 1_250),
        other(6, 2_000),
        started(7, 4_000),
        started(8, 31_000));

    assertEquals(List.of(250L, 3_000L, 30_000L), TemporalBenchmark.startDelays(parent));
  }

  @Test
  void aStartWithoutAnAskIsAnError() {
    assertThrows(IllegalArgumentException.class, () -> TemporalBenchmark.startDelays(List.of(started(1, 10))));
  }

  @Test
  void eventsPerServerCpuSecond() {
    var journal = TemporalBenchmark.JOURNALS.getFirst();
    var delays = Percentiles.of(List.of(1));
    assertEquals(250.0, new TemporalBenchmark.Result(journal, 60, delays, 17_000, 68).eventsPerCpuSecond());
    assertEquals(0.0, new TemporalBenchmark.Result(journal, 60, delays, 17_000, 0).eventsPerCpuSecond(), "no CPU read");
  }

  private static HistoryEvent.Builder at(long id, long millis) {
    return HistoryEvent.newBuilder().setEventId(id)
        .setEventTime(Timestamp.newBuilder().setSeconds(millis / 1000).setNanos((int) (millis % 1000) * 1_000_000));
  }

  private static HistoryEvent asked(long id, long millis) {
    return at(id, millis).setStartChildWorkflowExecutionInitiatedEventAttributes(
        StartChildWorkflowExecutionInitiatedEventAttributes.getDefaultInstance()).build();
  }

  private static HistoryEvent started(long id, long millis) {
    return at(id, millis).setChildWorkflowExecutionStartedEventAttributes(
        ChildWorkflowExecutionStartedEventAttributes.getDefaultInstance()).build();
  }

  private static HistoryEvent other(long id, long millis) {
    return at(id, millis).setWorkflowTaskCompletedEventAttributes(WorkflowTaskCompletedEventAttributes.getDefaultInstance()).build();
  }
}
