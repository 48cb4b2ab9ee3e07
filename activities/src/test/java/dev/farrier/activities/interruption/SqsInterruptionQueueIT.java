package dev.farrier.activities.interruption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.farrier.activities.cloud.aws.MotoIT;
import dev.farrier.workflows.activities.InterruptionKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The SQS adapter against moto's SQS: long poll, batch delete, per-entry failures. */
class SqsInterruptionQueueIT extends MotoIT {
  private String name;
  private String url;

  @BeforeEach
  void createQueue() {
    name = unique("farrier-interruption");
    url = aws.sqs().createQueue(r -> r.queueName(name)).queueUrl();
  }

  private void send(String body) {
    aws.sqs().sendMessage(r -> r.queueUrl(url).messageBody(body));
  }

  /** Visible plus in flight: what is left in the queue. */
  static int left(String url) {
    Map<QueueAttributeName, String> attributes = aws.sqs().getQueueAttributes(r -> r.queueUrl(url).attributeNames(
        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
    return Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
        + Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
  }

  @Test
  void receivesAtMostTenAndDeletesInBatchesByName() {
    for (int i = 0; i < 12; i++) {
      send(EventBridgeEvents.spotInterruptionWarning("i-0123456789abcde" + Integer.toHexString(i), REGION, "us-east-1a", Instant.now()));
    }
    var queue = new SqsInterruptionQueue(aws.sqs(), name, Duration.ofSeconds(1));
    assertEquals(url, queue.url(), "a queue name is resolved to its URL");

    List<String> handles = new ArrayList<>();
    for (int polls = 0; polls < 5 && handles.size() < 12; polls++) {
      var batch = queue.receive();
      assertTrue(batch.size() <= 10, "at most ten per receive: " + batch.size());
      batch.forEach(m -> {
        assertTrue(EventBridgeParser.parse(m.body()) instanceof InterruptionMessage.Notice n && n.kind() == InterruptionKind.SpotInterruption);
        handles.add(m.receiptHandle());
      });
    }
    assertEquals(12, handles.size());

    var outcome = queue.delete(handles);

    assertEquals(12, outcome.deleted());
    assertEquals(List.of(), outcome.failures());
    assertEquals(0, left(url));
  }

  @Test
  void aLongPollOnAnEmptyQueueWaitsThenReturnsNothing() {
    var queue = new SqsInterruptionQueue(aws.sqs(), url, Duration.ofSeconds(2));
    long started = System.nanoTime();
    assertEquals(List.of(), queue.receive());
    assertTrue(System.nanoTime() - started >= Duration.ofMillis(1500).toNanos(), "the receive waited for a message");
  }

  @Test
  void refusedEntriesAreReportedNotThrown() {
    send("{}");
    var queue = new SqsInterruptionQueue(aws.sqs(), url, Duration.ofSeconds(1));
    var message = queue.receive().getFirst();

    var outcome = queue.delete(List.of("not-a-receipt-handle", message.receiptHandle()));

    assertEquals(1, outcome.deleted());
    assertEquals(1, outcome.failures().size(), "" + outcome.failures());
    assertTrue(outcome.failures().getFirst().startsWith("receipt handle not-a-receipt-ha...: ReceiptHandleIsInvalid"),
        outcome.failures().getFirst());
    assertEquals(0, left(url));
  }
}
