package dev.farrier.workflows.activities;

import dev.farrier.model.ReplacementResult;

/**
 * A replacement that has closed, as {@link RolloutActivities#awaitClosed} found it: its result when it completed, or
 * why not ({@code failure}: it failed, was terminated, timed out, or is not found).
 */
public record ClosedReplacement(String nodeClaim, ReplacementResult result, String failure) {
  public static ClosedReplacement completed(String nodeClaim, ReplacementResult result) {
    return new ClosedReplacement(nodeClaim, result, null);
  }

  public static ClosedReplacement failed(String nodeClaim, String failure) {
    return new ClosedReplacement(nodeClaim, null, failure);
  }
}
