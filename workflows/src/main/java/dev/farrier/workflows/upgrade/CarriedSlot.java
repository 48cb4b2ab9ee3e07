package dev.farrier.workflows.upgrade;

import dev.farrier.model.WorkloadRef;
import dev.farrier.model.ReplacementResult;
import java.util.List;

/**
 * One slot of a rolling rollout in flight when it continued as new: the claim its replacement ({@code
 * disrupt/<nodeclaim>}) replaces, the workloads its gate watches, and how the replacement ended when it had already
 * ({@code result}, or {@code failure}: why it failed); both null while it runs. The next run gates it as the slot's
 * own run would have, and follows a running one until it closes ({@link
 * dev.farrier.workflows.activities.RolloutActivities#awaitClosed}).
 */
public record CarriedSlot(String nodeClaim, List<WorkloadRef> moved, ReplacementResult result, String failure) {
  public CarriedSlot {
    moved = moved == null ? List.of() : List.copyOf(moved);
  }

  boolean running() {
    return result == null && failure == null;
  }
}
