package dev.farrier.workflows.activities;

import java.util.List;

/**
 * The outcome of a batch delete.
 *
 * @param deleted  messages the queue confirmed deleted
 * @param failures one line per entry the queue refused ("code: message"); such a message becomes visible again and
 *                 is handled a second time, which the replacement's workflow id makes harmless
 */
public record DeletedMessages(int deleted, List<String> failures) {
  public DeletedMessages {
    failures = failures == null ? List.of() : List.copyOf(failures);
  }
}
