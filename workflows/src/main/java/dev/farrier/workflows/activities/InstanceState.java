package dev.farrier.workflows.activities;

/** An instance's EC2 state name (pending, running, shutting-down, terminated, stopping, stopped), or not-found. */
public record InstanceState(String instanceId, String state) {
  public static final String NOT_FOUND = "not-found";

  public boolean gone() {
    return "terminated".equals(state) || NOT_FOUND.equals(state);
  }
}
