package dev.farrier.workflows;

/** Task queue names. One queue serves every workflow and activity of a cluster's worker. */
public final class TaskQueues {
  private TaskQueues() {}

  public static final String DEFAULT = "farrier";
}
