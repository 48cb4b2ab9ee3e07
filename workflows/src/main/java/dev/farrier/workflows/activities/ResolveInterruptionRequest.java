package dev.farrier.workflows.activities;

import java.util.List;

/** Finds the NodeClaims and Nodes of the instances a notice names. */
public record ResolveInterruptionRequest(String cluster, InterruptionKind kind, String detail, List<String> instanceIds) {
  public ResolveInterruptionRequest {
    instanceIds = instanceIds == null ? List.of() : List.copyOf(instanceIds);
  }
}
