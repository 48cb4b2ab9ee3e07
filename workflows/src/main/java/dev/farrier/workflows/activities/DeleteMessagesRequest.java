package dev.farrier.workflows.activities;

import java.util.List;

/** Deletes handled messages from the interruption queue by their receipt handles. */
public record DeleteMessagesRequest(String queue, List<String> receiptHandles) {
  public DeleteMessagesRequest {
    receiptHandles = receiptHandles == null ? List.of() : List.copyOf(receiptHandles);
  }
}
