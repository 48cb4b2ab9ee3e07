package dev.farrier.workflows.activities;

import java.util.List;

/**
 * Names a Node (and the claim it belongs to, for Events and logs).
 *
 * @param events Kubernetes Events the step records once it has done its work (best effort); none from the shorter
 *               constructor
 */
public record NodeRef(String cluster, String nodeName, String nodeClaim, List<EventRequest> events) {
  public NodeRef {
    events = events == null ? List.of() : List.copyOf(events);
  }

  public NodeRef(String cluster, String nodeName, String nodeClaim) {
    this(cluster, nodeName, nodeClaim, List.of());
  }

  /** The same node, for a step that records {@code events} once it has done its work. */
  public NodeRef recording(List<EventRequest> events) {
    return new NodeRef(cluster, nodeName, nodeClaim, events);
  }
}
