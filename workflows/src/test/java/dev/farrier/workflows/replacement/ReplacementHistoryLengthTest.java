package dev.farrier.workflows.replacement;

import dev.farrier.model.ReplacementResult;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.workflows.WorkflowIds;
import dev.farrier.workflows.testing.FakeNodeActivities;
import dev.farrier.workflows.testing.FarrierTestEnvironment;
import dev.farrier.workflows.testing.Fixtures;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 15's orchestration cost, counted through the client's history API as the Temporal UI shows it: a plain
 * replacement (a drift replace whose drain pass empties the node) stays within {@link #REPLACEMENT_BUDGET} history
 * events whatever the number of pods it evicts, and its launch child within {@link #LAUNCH_BUDGET}: every Event is
 * recorded by the step that causes it, not by an activity of its own.
 */
class ReplacementHistoryLengthTest {
  /**
   * The aim for one replacement. A plain one takes about 62: six activities and the launch child at about 6
   * events each, the version markers and the phase search attributes.
   */
  static final int REPLACEMENT_BUDGET = 80;
  /** Five steps at about 7 events each and the phase search attributes; it was 60 with an activity per Event. */
  static final int LAUNCH_BUDGET = 45;

  private final FarrierTestEnvironment test = new FarrierTestEnvironment();

  @AfterEach
  void close() {
    test.close();
  }

  @Test
  void aPlainReplacementStaysWithinItsBudgetAndDoesNotGrowWithThePodsItEvicts() {
    test.nodes.onDrainStep(request -> FakeNodeActivities.drained(pods(request.nodeName().endsWith("few") ? 3 : 30)));
    test.start();

    ReplacementResult few = replace("default-few");
    ReplacementResult many = replace("default-many");

    assertEquals(3, few.evictedPods());
    assertEquals(30, many.evictedPods());
    List<HistoryEvent> fewEvents = history(WorkflowIds.disruption("default-few"));
    List<HistoryEvent> manyEvents = history(WorkflowIds.disruption("default-many"));
    assertTrue(length(fewEvents) <= REPLACEMENT_BUDGET, "with 3 pods: " + length(fewEvents) + " events");
    assertTrue(length(manyEvents) <= REPLACEMENT_BUDGET, "with 30 pods: " + length(manyEvents) + " events");
    assertEquals(withoutWorkflowTasks(fewEvents), withoutWorkflowTasks(manyEvents), "30 pods evicted instead of 3 add no events");
    assertEquals(30, test.nodes.events().stream()
        .filter(e -> e.reason().equals("Evicted") && e.name().equals("node-default-many")).count(),
        "each eviction is still an Event on the node");
    int launchEvents = length(history(WorkflowIds.launch(few.replacementNodeClaim())));
    assertTrue(launchEvents <= LAUNCH_BUDGET, "its launch took " + launchEvents + " history events");
  }

  private ReplacementResult replace(String claim) {
    ReplacementResult result = test.newWorkflow(NodeReplacementWorkflow.class, WorkflowIds.disruption(claim))
        .replace(Fixtures.replacement(Fixtures.command(claim, "replace", null)));
    assertEquals("Done", result.outcome());
    return result;
  }

  private List<HistoryEvent> history(String workflowId) {
    return test.client().fetchHistory(workflowId).getEvents();
  }

  /**
   * The history's length, less the events of workflow tasks the test machine failed: a cold JVM on a busy machine can
   * take longer than the SDK's 1 s deadlock detection for a first task, whose retry adds 3 events (scheduled, started,
   * failed) that say nothing about the workflow.
   */
  private static int length(List<HistoryEvent> events) {
    long failedTasks = events.stream().filter(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED
        || e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT).count();
    return events.size() - 3 * (int) failedTasks;
  }

  /**
   * The events of what the workflow did (commands and their outcomes): how many workflow tasks carried them depends on
   * how results arrived, which the test does not control.
   */
  private static long withoutWorkflowTasks(List<HistoryEvent> events) {
    return events.stream().filter(e -> !e.getEventType().name().startsWith("EVENT_TYPE_WORKFLOW_TASK_")).count();
  }

  private static List<String> pods(int count) {
    return IntStream.rangeClosed(1, count).mapToObj(i -> "default/web-" + i).toList();
  }
}
