package dev.farrier.workflows.activities;

import java.util.List;

/**
 * One EventBridge message from the interruption queue that names instances Farrier may have to act on.
 *
 * @param kind            what AWS announced, see {@link InterruptionKind}
 * @param instanceIds     the instances it names (one for EC2 events, one or more for an AWS Health event)
 * @param eventTimeMillis the event's {@code time} (epoch millis), when AWS emitted it
 * @param detail          the event in words, for Events and logs (e.g. "instance-action terminate", "state stopping")
 * @param messageId       the SQS message id, for logs
 * @param receiptHandle   what deletes the message once it is handled
 */
public record InterruptionNotice(
    InterruptionKind kind,
    List<String> instanceIds,
    long eventTimeMillis,
    String detail,
    String messageId,
    String receiptHandle) {
  public InterruptionNotice {
    instanceIds = instanceIds == null ? List.of() : List.copyOf(instanceIds);
  }
}
