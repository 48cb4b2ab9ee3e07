package dev.farrier.workflows;

import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.workflows.activities.NodeActivities;
import dev.farrier.workflows.activities.RecordEventsRequest;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;

/**
 * Records Kubernetes Events from workflow code. Best effort: an Event that cannot be recorded is logged and
 * forgotten, never a reason to fail a launch or a replacement.
 *
 * <p>A step records the Events it causes itself: they are handed to it through {@link #withStep}. Events that belong to
 * no step are recorded here, each call as one {@code recordEvents} activity.
 */
public final class EventRecorder {
  private static final Logger log = Workflow.getLogger(EventRecorder.class);

  private final NodeActivities nodes;
  private final String cluster;
  /** Events waiting for the next step to record them with its own. */
  private List<EventRequest> held = List.of();

  public EventRecorder(NodeActivities nodes, String cluster) {
    this.nodes = nodes;
    this.cluster = cluster;
  }

  public void normal(String kind, String name, String reason, String message) {
    record(List.of(event(kind, name, EventReasons.NORMAL, reason, message)));
  }

  public void warning(String kind, String name, String reason, String message) {
    record(List.of(event(kind, name, EventReasons.WARNING, reason, message)));
  }

  /** An object an Event is about. */
  public record Target(String kind, String name) {}

  /** The same Event on several objects (a Node and its NodeClaim), recorded together. */
  public void each(String type, String reason, String message, List<Target> targets) {
    record(onEach(type, reason, message, targets));
  }

  /** The same Event on several objects, for a step to record. */
  public List<EventRequest> onEach(String type, String reason, String message, List<Target> targets) {
    return targets.stream().map(t -> event(t.kind(), t.name(), type, reason, message)).toList();
  }

  /** An Event for a step to record once it has done its work. */
  public EventRequest event(String kind, String name, String type, String reason, String message) {
    return new EventRequest(cluster, kind, name, type, reason, message);
  }

  /**
   * Holds Events for the next step to record with its own ({@link #withStep}); should a record call come first (an
   * abort, a failure), it records them, so they are recorded once either way.
   */
  public void holdForNextStep(List<EventRequest> events) {
    held = concat(held, events);
  }

  /**
   * Runs a step with the Events it causes, handed to it to record after those held for it; the held ones are released
   * once the step succeeds (a step that fails leaves them held).
   */
  public void withStep(List<EventRequest> caused, Consumer<List<EventRequest>> step) {
    step.accept(concat(held, caused));
    held = List.of();
  }

  /** Records Events that belong to no step, with any held for a step that did not come, in one activity. */
  public void record(List<EventRequest> events) {
    List<EventRequest> together = concat(held, events);
    held = List.of();
    try {
      nodes.recordEvents(new RecordEventsRequest(together));
    } catch (ActivityFailure failure) {
      StructuredLog.warn(log, "could not record events", "reasons", together.stream().map(EventRequest::reason).distinct().toList(),
          "names", together.stream().map(EventRequest::name).distinct().toList(), "error", Failures.reason(failure));
    }
  }

  private static List<EventRequest> concat(List<EventRequest> first, List<EventRequest> then) {
    List<EventRequest> all = new ArrayList<>(first);
    all.addAll(then);
    return List.copyOf(all);
  }
}
