package dev.farrier.workflows;

import dev.farrier.workflows.activities.EventRequest;
import dev.farrier.workflows.activities.NodeActivities;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.List;
import org.slf4j.Logger;

/**
 * Records Kubernetes Events from workflow code. Best effort: an Event that cannot be recorded is logged and
 * forgotten, never a reason to fail a launch or a replacement.
 */
public final class EventRecorder {
  private static final Logger log = Workflow.getLogger(EventRecorder.class);

  private final NodeActivities nodes;
  private final String cluster;

  public EventRecorder(NodeActivities nodes, String cluster) {
    this.nodes = nodes;
    this.cluster = cluster;
  }

  public void normal(String kind, String name, String reason, String message) {
    record(List.of(new EventRequest(cluster, kind, name, EventReasons.NORMAL, reason, message)));
  }

  public void warning(String kind, String name, String reason, String message) {
    record(List.of(new EventRequest(cluster, kind, name, EventReasons.WARNING, reason, message)));
  }

  /** Records several Events in parallel and waits for all, so a drain pass's evictions cost one round trip. */
  public void normalEach(String kind, String name, String reason, List<String> messages) {
    record(messages.stream().map(m -> new EventRequest(cluster, kind, name, EventReasons.NORMAL, reason, m)).toList());
  }

  /** An object an Event is about. */
  public record Target(String kind, String name) {}

  /** The same Event on several objects (a Node and its NodeClaim), recorded in parallel. */
  public void each(String type, String reason, String message, List<Target> targets) {
    record(targets.stream().map(t -> new EventRequest(cluster, t.kind(), t.name(), type, reason, message)).toList());
  }

  private void record(List<EventRequest> events) {
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
}
