package dev.farrier.activities.kube;

import dev.farrier.workflows.FailureTypes;

/**
 * A write that needs its object (add a taint, cordon, add a finalizer, patch a status) found it missing. Removals
 * and deletes never throw this: for them a missing object is the goal reached. Its {@code ApplicationFailure}
 * type is {@link #FAILURE_TYPE}.
 */
public class ObjectNotFoundException extends RuntimeException {
  public static final String FAILURE_TYPE = FailureTypes.NOT_FOUND;

  private final String kind;
  private final String name;

  public ObjectNotFoundException(String kind, String name) {
    super(kind + " " + name + " not found");
    this.kind = kind;
    this.name = name;
  }

  public String kind() {
    return kind;
  }

  public String name() {
    return name;
  }
}
