package dev.farrier.activities.interruption;

import dev.farrier.workflows.activities.InterruptionKind;
import java.time.Instant;
import java.util.List;

/** What one message of the interruption queue turned out to be. */
public sealed interface InterruptionMessage {
  /** An event that names instances Farrier may have to act on. */
  record Notice(InterruptionKind kind, List<String> instanceIds, Instant time, String detail) implements InterruptionMessage {
    public Notice {
      instanceIds = List.copyOf(instanceIds);
    }
  }

  /** A well-formed event that needs nothing (an instance starting, a Health event about another service). */
  record Ignored(String why) implements InterruptionMessage {}

  /** Not JSON, not an EventBridge event, or an event Farrier does not know: deleted and counted, never retried. */
  record Malformed(String why) implements InterruptionMessage {}
}
