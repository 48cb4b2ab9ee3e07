package dev.farrier.activities;

/**
 * Whether a replacement workflow ({@code disrupt/<nodeclaim>}) is running. The disrupted taint alone is not proof:
 * it outlives a replacement that was terminated, reset or failed past its point of no return, and a taint nobody
 * owns would hold the node (and a unit of its NodePool's budget) forever.
 */
@FunctionalInterface
public interface ReplacementTracker {
  /** Without a way to ask, every taint counts as a running replacement (the safe side: nothing is started twice). */
  ReplacementTracker TAINT_MEANS_RUNNING = nodeClaim -> true;

  boolean running(String nodeClaim);
}
