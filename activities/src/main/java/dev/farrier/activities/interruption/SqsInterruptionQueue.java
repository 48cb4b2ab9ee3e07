package dev.farrier.activities.interruption;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The interruption queue: long-polling receive and batch delete, nothing else. {@code queue} is a queue URL or a
 * queue name (looked up once with GetQueueUrl).
 */
public final class SqsInterruptionQueue {
  /** SQS's longest long poll: an idle queue costs three requests a minute. */
  public static final Duration LONG_POLL = Duration.ofSeconds(20);
  /** SQS's most messages per receive and per batch delete. */
  static final int MAX_BATCH = 10;

  /** A received message. */
  public record QueueMessage(String messageId, String receiptHandle, String body) {}

  /** Receipt handles deleted and one line per entry SQS refused ("receipt handle ...: code message"). */
  public record DeleteOutcome(int deleted, List<String> failures) {}

  private final SqsClient sqs;
  private final String queue;
  private final Duration waitTime;
  private volatile String url;

  public SqsInterruptionQueue(SqsClient sqs, String queue, Duration waitTime) {
    if (queue == null || queue.isBlank()) {
      throw new IllegalArgumentException("an interruption queue URL or name is required");
    }
    this.sqs = sqs;
    this.queue = queue;
    this.waitTime = waitTime;
  }

  public SqsInterruptionQueue(SqsClient sqs, String queue) {
    this(sqs, queue, LONG_POLL);
  }

  public String url() {
    if (url == null) {
      url = queue.contains("://") ? queue : sqs.getQueueUrl(r -> r.queueName(queue)).queueUrl();
    }
    return url;
  }

  /** One long poll: up to {@value #MAX_BATCH} messages, waiting up to the wait time for the first one. */
  public List<QueueMessage> receive() {
    List<Message> messages = sqs.receiveMessage(r -> r.queueUrl(url()).maxNumberOfMessages(MAX_BATCH)
        .waitTimeSeconds((int) waitTime.toSeconds())).messages();
    return messages.stream().map(m -> new QueueMessage(m.messageId(), m.receiptHandle(), m.body())).toList();
  }

  /** Deletes in batches of {@value #MAX_BATCH}; a refused entry is reported, never thrown (the message comes back). */
  public DeleteOutcome delete(List<String> receiptHandles) {
    int deleted = 0;
    List<String> failures = new ArrayList<>();
    for (int start = 0; start < receiptHandles.size(); start += MAX_BATCH) {
      List<String> chunk = receiptHandles.subList(start, Math.min(receiptHandles.size(), start + MAX_BATCH));
      List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>();
      for (int i = 0; i < chunk.size(); i++) {
        entries.add(DeleteMessageBatchRequestEntry.builder().id(Integer.toString(i)).receiptHandle(chunk.get(i)).build());
      }
      DeleteMessageBatchResponse response = sqs.deleteMessageBatch(r -> r.queueUrl(url()).entries(entries));
      deleted += response.successful().size();
      for (BatchResultErrorEntry error : response.failed()) {
        String handle = chunk.get(Integer.parseInt(error.id()));
        failures.add("receipt handle " + abbreviate(handle) + ": " + error.code() + " " + error.message());
      }
    }
    return new DeleteOutcome(deleted, failures);
  }

  private static String abbreviate(String handle) {
    return handle.length() <= 16 ? handle : handle.substring(0, 16) + "...";
  }
}
