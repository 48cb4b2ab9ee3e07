package dev.farrier.workflows.activities;

import java.util.List;

/**
 * What one poll of the interruption queue returned.
 *
 * @param notices   messages to act on; each is deleted by the workflow once it is handled
 * @param malformed messages that were not JSON or not an EventBridge event Farrier knows: already logged and deleted
 * @param ignored   well-formed events that need nothing (e.g. an instance entering {@code running}): already deleted
 */
public record ReceivedInterruptions(List<InterruptionNotice> notices, int malformed, int ignored) {
  public ReceivedInterruptions {
    notices = notices == null ? List.of() : List.copyOf(notices);
  }
}
