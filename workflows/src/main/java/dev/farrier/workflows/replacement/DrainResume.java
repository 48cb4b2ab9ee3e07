package dev.farrier.workflows.replacement;

import dev.farrier.workflows.provisioning.LaunchedNode;
import java.util.List;

/**
 * Where a replacement stood when its drain continued as new: a drain a PodDisruptionBudget blocks for days would
 * otherwise grow one history past Temporal's limit. The node is tainted and cordoned, the replacement is up.
 *
 * @param graceEndsAtMillis when the NodePool's terminationGracePeriod ends (absolute), {@link Long#MAX_VALUE} if unset
 * @param interruption      set when the node is being interrupted, so the next run keeps draining without backoff
 */
public record DrainResume(
    String replacementName,
    LaunchedNode replacement,
    boolean tainted,
    boolean cordoned,
    boolean paused,
    long graceEndsAtMillis,
    List<String> evicted,
    String lastBlocker,
    Interruption interruption) {
  public DrainResume {
    evicted = evicted == null ? List.of() : List.copyOf(evicted);
  }
}
