package dev.farrier.workflows;

import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.workflows.activities.NodeActivities;
import dev.farrier.workflows.activities.RecordEventsRequest;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;

/**
 * Records Kubernetes Events from workflow code. Best effort: an Event that cannot be recorded is logged and
 * forgotten, never a reason to fail a launch or a replacement.
 *
 * <p>Where steps record their own Events (version {@code events-with-steps} of the launch and replacement workflows),
 * this records only the Events that belong to no step, each call as one {@code recordEvents} activity; the steps get
 * theirs through {@link #withStep}. Runs from before keep one {@code recordEvent} activity per Event, in parallel, as
 * their histories recorded them.
 */
public final class EventRecorder {
  private static final Logger log = Workflow.getLogger(EventRecorder.class);

  private final NodeActivities nodes;
  private final String cluster;
  /** This run's steps record their own Events (version {@code events-with-steps}). */
  private final boolean withSteps;
  /** Events waiting for the next step to record them with its own. */
  private List<EventRequest> held = List.of();

  /** One {@code recordEvent} activity per Event: as runs from before {@code events-with-steps} record them. */
  public EventRecorder(NodeActivities nodes, String cluster) {
    this(nodes, cluster, false);
  }

  /**
   * @param withSteps the run's steps record the Events they cause; each call here records its Events in one
   *                  {@code recordEvents} activity
   */
  public EventRecorder(NodeActivities nodes, String cluster, boolean withSteps) {
    this.nodes = nodes;
    this.cluster = cluster;
    this.withSteps = withSteps;
  }

  public void normal(String kind, String name, String reason, String message) {
    record(List.of(event(kind, name, EventReasons.NORMAL, reason, message)));
  }

  public void warning(String kind, String name, String reason, String message) {
    record(List.of(event(kind, name, EventReasons.WARNING, reason, message)));
  }

  /** Records several Events together (a drain pass's evictions, in runs from before the pass recorded them). */
  public void normalEach(String kind, String name, String reason, List<String> messages) {
    record(messages.stream().map(m -> event(kind, name, EventReasons.NORMAL, reason, m)).toList());
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
   * abort, a failure), it records them, so they are recorded once either way. Recorded at once where each Event is an
   * activity of its own.
   */
  public void holdForNextStep(List<EventRequest> events) {
    if (!withSteps) {
      record(events);
      return;
    }
    held = concat(held, events);
  }

  /**
   * Runs a step with the Events it causes: handed to it to record, after those held for it, where steps record their
   * own (the held ones are released once the step succeeds; a step that fails leaves them held), else recorded after
   * it.
   */
  public void withStep(List<EventRequest> caused, Consumer<List<EventRequest>> step) {
    if (!withSteps) {
      step.accept(List.of());
      record(caused);
      return;
    }
    step.accept(concat(held, caused));
    held = List.of();
  }

  /** Records Events that belong to no step (or, in runs from before, Events a step caused) once it is done. */
  public void record(List<EventRequest> events) {
    if (withSteps) {
      List<EventRequest> together = concat(held, events);
      held = List.of();
      recordTogether(together);
      return;
    }
    List<Promise<Void>> sent = events.stream().map(e -> Async.procedure(nodes::recordEvent, e)).toList();
    for (int i = 0; i < sent.size(); i++) {
      try {
        sent.get(i).get();
      } catch (ActivityFailure failure) {
        EventRequest event = events.get(i);
        StructuredLog.warn(log, "could not record event", "reason", event.reason(), "name", event.name(),
            "error", Failures.reason(failure));
      }
    }
  }

  private void recordTogether(List<EventRequest> events) {
    try {
      nodes.recordEvents(new RecordEventsRequest(events));
    } catch (ActivityFailure failure) {
      StructuredLog.warn(log, "could not record events", "reasons", events.stream().map(EventRequest::reason).distinct().toList(),
          "names", events.stream().map(EventRequest::name).distinct().toList(), "error", Failures.reason(failure));
    }
  }

  private static List<EventRequest> concat(List<EventRequest> first, List<EventRequest> then) {
    List<EventRequest> all = new ArrayList<>(first);
    all.addAll(then);
    return List.copyOf(all);
  }
}
