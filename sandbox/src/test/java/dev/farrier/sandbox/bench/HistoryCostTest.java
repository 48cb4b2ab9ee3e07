package dev.farrier.sandbox.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.Timestamp;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.History;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.history.v1.WorkflowTaskCompletedEventAttributes;
import io.temporal.api.history.v1.WorkflowTaskStartedEventAttributes;
import java.util.List;
import org.junit.jupiter.api.Test;

class HistoryCostTest {
  private static HistoryEvent event(long id, EventType type, long millis) {
    return HistoryEvent.newBuilder().setEventId(id).setEventType(type)
        .setEventTime(Timestamp.newBuilder().setSeconds(millis / 1000).setNanos((int) (millis % 1000) * 1_000_000)).build();
  }

  @Test
  void eachWorkflowTaskGivesItsWaitForAWorkerAndItsRun() {
    var history = History.newBuilder()
        .addEvents(event(1, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, 10_000))
        .addEvents(event(2, EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, 10_000))
        .addEvents(event(3, EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED, 10_007).toBuilder()
            .setWorkflowTaskStartedEventAttributes(WorkflowTaskStartedEventAttributes.newBuilder().setScheduledEventId(2)).build())
        .addEvents(event(4, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, 10_040).toBuilder()
            .setWorkflowTaskCompletedEventAttributes(WorkflowTaskCompletedEventAttributes.newBuilder().setScheduledEventId(2).setStartedEventId(3)).build())
        .addEvents(event(5, EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, 10_040))
        .addEvents(event(6, EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, 11_500))
        .addEvents(event(7, EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED, 11_620).toBuilder()
            .setWorkflowTaskStartedEventAttributes(WorkflowTaskStartedEventAttributes.newBuilder().setScheduledEventId(6)).build())
        .addEvents(event(8, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, 11_625).toBuilder()
            .setWorkflowTaskCompletedEventAttributes(WorkflowTaskCompletedEventAttributes.newBuilder().setScheduledEventId(6).setStartedEventId(7)).build())
        .addEvents(event(9, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, 11_625))
        .build();

    HistoryCost cost = HistoryCost.of(history);

    assertEquals(9, cost.events());
    assertEquals(history.getSerializedSize(), cost.bytes());
    assertEquals(List.of(7L, 120L), cost.scheduleToStartMillis());
    assertEquals(List.of(33L, 5L), cost.executionMillis());
  }
}
