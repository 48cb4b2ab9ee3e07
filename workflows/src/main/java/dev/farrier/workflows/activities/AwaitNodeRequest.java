package dev.farrier.workflows.activities;

import java.util.List;

/**
 * Input of the waiting activities: the claim, and the node once known (null while waiting for registration).
 *
 * @param events Kubernetes Events the step records once it has done its work (best effort); none from the shorter
 *               constructor
 */
public record AwaitNodeRequest(String cluster, String nodeClaim, String providerId, String nodeName, List<EventRequest> events) {
  public AwaitNodeRequest {
    events = events == null ? List.of() : List.copyOf(events);
  }

  public AwaitNodeRequest(String cluster, String nodeClaim, String providerId, String nodeName) {
    this(cluster, nodeClaim, providerId, nodeName, List.of());
  }

  /** The same request, for a step that records {@code events} once it has done its work. */
  public AwaitNodeRequest recording(List<EventRequest> events) {
    return new AwaitNodeRequest(cluster, nodeClaim, providerId, nodeName, events);
  }
}
