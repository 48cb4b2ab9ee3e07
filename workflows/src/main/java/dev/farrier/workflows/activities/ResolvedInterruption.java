package dev.farrier.workflows.activities;

import java.util.List;

/** One {@link InterruptionTarget} per instance id of the request, in its order. */
public record ResolvedInterruption(List<InterruptionTarget> targets) {
  public ResolvedInterruption {
    targets = targets == null ? List.of() : List.copyOf(targets);
  }
}
