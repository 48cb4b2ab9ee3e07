package dev.farrier.sandbox.chaos;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the monitor saw at one instant, read from outside the worker: every instance the cloud reports, the API
 * server's NodeClaims, the pods still pending and the replacements and rollouts Temporal lists as running.
 */
public record Observation(Instant at, List<CloudInstance> instances, List<Claim> claims, List<String> pendingPods,
    List<String> runningWorkflows) {
  public Observation {
    instances = List.copyOf(instances);
    claims = List.copyOf(claims);
    pendingPods = List.copyOf(pendingPods);
    runningWorkflows = List.copyOf(runningWorkflows);
  }

  /** An instance as the cloud reports it: its id, EC2 state name and tags. */
  public record CloudInstance(String id, String state, Map<String, String> tags) {
    public CloudInstance {
      tags = Map.copyOf(tags);
    }

    /** Pending or running: an instance that costs money and may become a node. */
    public boolean live() {
      return state.equals("pending") || state.equals("running");
    }
  }

  /** A NodeClaim: its name and whether it is being deleted. */
  public record Claim(String name, boolean deleting) {}
}
