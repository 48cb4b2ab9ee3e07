package dev.farrier.workflows.activities;

import java.util.List;

/**
 * Input of {@link NodeClaimActivities#terminateInstance} and the other instance steps.
 *
 * @param events Kubernetes Events the step records once it has done its work (best effort); none from the shorter
 *               constructor
 */
public record TerminateInstanceRequest(String cluster, String nodeClaim, String instanceId, List<EventRequest> events) {
  public TerminateInstanceRequest {
    events = events == null ? List.of() : List.copyOf(events);
  }

  public TerminateInstanceRequest(String cluster, String nodeClaim, String instanceId) {
    this(cluster, nodeClaim, instanceId, List.of());
  }
}
