package dev.farrier.sandbox.bench.peer;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.function.BiConsumer;

/** An informer handler that hands every object it is told of to one method, with whether it was deleted. */
record Seen<T>(BiConsumer<T, Boolean> note) implements ResourceEventHandler<T> {
  @Override
  public void onAdd(T object) {
    note.accept(object, false);
  }

  @Override
  public void onUpdate(T old, T object) {
    note.accept(object, false);
  }

  @Override
  public void onDelete(T object, boolean unknownFinalState) {
    note.accept(object, true);
  }
}
