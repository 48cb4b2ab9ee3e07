package dev.farrier.workflows.testing;

import dev.farrier.workflows.activities.EventRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The calls the fake activities received, in order, as {@code "method arg1 arg2"} lines (one journal shared by all
 * fakes, so order across interfaces can be asserted), and the Kubernetes Events they recorded: each Event, whether a
 * step recorded it or {@code recordEvent(s)} did, is kept ({@link #events()}) and journaled as a
 * {@code recordEvent <reason> <name>} line after the call that recorded it.
 */
public final class CallJournal {
  private final List<String> calls = new ArrayList<>();
  private final List<EventRequest> events = new ArrayList<>();
  private volatile java.util.function.BiConsumer<String, Object[]> listener = (method, args) -> {};

  public synchronized void record(String method, Object... args) {
    StringBuilder line = new StringBuilder(method);
    for (Object arg : args) {
      line.append(' ').append(arg);
    }
    calls.add(line.toString());
    listener.accept(method, args);
  }

  /**
   * Told of every call as it is journaled, inside the fake's call: a model of the cluster follows what the workflows
   * did to it (a taint, an abort mark, a deleted claim) without each fake growing a hook per call.
   */
  public CallJournal onRecord(java.util.function.BiConsumer<String, Object[]> listener) {
    this.listener = listener;
    return this;
  }

  /** An Event a fake recorded. */
  public synchronized void event(EventRequest event) {
    events.add(event);
    record("recordEvent", event.reason(), event.name());
  }

  public synchronized List<EventRequest> events() {
    return List.copyOf(events);
  }

  public synchronized List<String> all() {
    return List.copyOf(calls);
  }

  /** Every call except {@code recordEvent}, which is noise for order assertions. */
  public synchronized List<String> steps() {
    return calls.stream().filter(c -> !c.startsWith("recordEvent ")).toList();
  }

  public synchronized List<String> matching(Predicate<String> filter) {
    return calls.stream().filter(filter).toList();
  }

  public synchronized long count(String exactCall) {
    return calls.stream().filter(exactCall::equals).count();
  }

  public synchronized long countStartingWith(String prefix) {
    return calls.stream().filter(c -> c.startsWith(prefix)).count();
  }

  /** Index of the first call equal to {@code exactCall}, or -1. */
  public synchronized int indexOf(String exactCall) {
    return calls.indexOf(exactCall);
  }
}
