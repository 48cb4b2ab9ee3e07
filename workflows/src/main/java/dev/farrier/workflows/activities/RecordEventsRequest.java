package dev.farrier.workflows.activities;

import java.util.List;

/** Input of {@link NodeActivities#recordEvents}: Events no step records, recorded together in one activity. */
public record RecordEventsRequest(List<EventRequest> events) {
  public RecordEventsRequest {
    events = events == null ? List.of() : List.copyOf(events);
  }
}
