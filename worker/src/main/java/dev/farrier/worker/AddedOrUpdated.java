package dev.farrier.worker;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.function.Consumer;

/** An informer handler that passes every object added or updated to one consumer and ignores deletes. */
public final class AddedOrUpdated<T> implements ResourceEventHandler<T> {
  private final Consumer<T> seen;

  public AddedOrUpdated(Consumer<T> seen) {
    this.seen = seen;
  }

  @Override
  public void onAdd(T object) {
    seen.accept(object);
  }

  @Override
  public void onUpdate(T old, T object) {
    seen.accept(object);
  }

  @Override
  public void onDelete(T object, boolean deletedFinalStateUnknown) {}
}
