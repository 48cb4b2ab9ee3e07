package dev.farrier.sandbox.bench;

import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.History;
import io.temporal.api.history.v1.HistoryEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one workflow run cost Temporal, read from its history: how many events and bytes, and each workflow task's
 * schedule-to-start (how long it waited for a worker) and execution (started to completed: the worker running the
 * workflow code) in milliseconds, from the server's event times.
 */
public record HistoryCost(int events, long bytes, List<Long> scheduleToStartMillis, List<Long> executionMillis) {
  public static HistoryCost of(History history) {
    Map<Long, Long> scheduledAt = new HashMap<>();
    Map<Long, Long> startedAt = new HashMap<>();
    List<Long> waits = new ArrayList<>();
    List<Long> runs = new ArrayList<>();
    for (HistoryEvent event : history.getEventsList()) {
      long at = millis(event);
      if (event.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) {
        scheduledAt.put(event.getEventId(), at);
      } else if (event.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED) {
        startedAt.put(event.getEventId(), at);
        Long scheduled = scheduledAt.get(event.getWorkflowTaskStartedEventAttributes().getScheduledEventId());
        if (scheduled != null) {
          waits.add(at - scheduled);
        }
      } else if (event.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
        Long started = startedAt.get(event.getWorkflowTaskCompletedEventAttributes().getStartedEventId());
        if (started != null) {
          runs.add(at - started);
        }
      }
    }
    return new HistoryCost(history.getEventsCount(), history.getSerializedSize(), List.copyOf(waits), List.copyOf(runs));
  }

  /** An event's server time in epoch milliseconds. */
  static long millis(HistoryEvent event) {
    return event.getEventTime().getSeconds() * 1000 + event.getEventTime().getNanos() / 1_000_000;
  }
}
