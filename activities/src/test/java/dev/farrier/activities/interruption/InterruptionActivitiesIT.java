package dev.farrier.activities.interruption;

import dev.farrier.activities.metrics.MetricCatalog;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.farrier.activities.interruption.EventBridgeEvents;
import dev.farrier.activities.interruption.InterruptionCounters;
import dev.farrier.activities.interruption.SqsInterruptionQueue;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import dev.farrier.activities.cloud.aws.AwsClients;
import dev.farrier.activities.cloud.aws.MotoIT;
import dev.farrier.workflows.activities.DeleteMessagesRequest;
import dev.farrier.workflows.activities.InterruptionKind;
import dev.farrier.workflows.activities.ReceiveInterruptionsRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The receive and delete activities against moto's SQS: malformed messages never come back, notices wait for the workflow. */
class InterruptionActivitiesIT extends MotoIT {
  @Test
  void malformedAndIgnoredMessagesAreDeletedAndCountedNoticesAreReturned() {
    String url = aws.sqs().createQueue(r -> r.queueName(unique("farrier-interruption"))).queueUrl();
    // A short visibility timeout: a message the activity failed to delete would be visible again within the test.
    aws.sqs().setQueueAttributes(r -> r.queueUrl(url).attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "2")));
    for (String body : List.of(
        EventBridgeEvents.spotInterruptionWarning("i-0123456789abcdef0", REGION, "us-east-1a", Instant.parse("2026-11-21T10:00:00Z")),
        "garbage that is not an event",
        "{\"source\":\"aws.ec2\",\"detail-type\":\"EC2 Instance State-change Notification\",\"time\":\"2026-11-21T10:00:00Z\","
            + "\"detail\":{\"instance-id\":\"i-0123456789abcdef1\",\"state\":\"running\"}}")) {
      aws.sqs().sendMessage(r -> r.queueUrl(url).messageBody(body));
    }
    var meters = new SimpleMeterRegistry();
    var counters = new InterruptionCounters(meters);
    var activities = new InterruptionActivitiesImpl(queue -> new SqsInterruptionQueue(aws.sqs(), queue, Duration.ofSeconds(1)),
        null, null, counters, () -> false);

    int malformed = 0;
    int ignored = 0;
    List<dev.farrier.workflows.activities.InterruptionNotice> notices = new java.util.ArrayList<>();
    for (int poll = 0; poll < 5 && malformed + ignored + notices.size() < 3; poll++) {
      var received = activities.receive(new ReceiveInterruptionsRequest(url));
      malformed += received.malformed();
      ignored += received.ignored();
      notices.addAll(received.notices());
    }

    assertEquals(1, malformed);
    assertEquals(1, ignored);
    assertEquals(1, notices.size());
    assertEquals(InterruptionKind.SpotInterruption, notices.getFirst().kind());
    assertEquals(List.of("i-0123456789abcdef0"), notices.getFirst().instanceIds());
    assertEquals(Instant.parse("2026-11-21T10:00:00Z").toEpochMilli(), notices.getFirst().eventTimeMillis());
    assertEquals(1, counters.malformedCount());
    assertEquals(1, meters.get(MetricCatalog.INTERRUPTION_RECEIVED.registeredName()).tag("message_type", "spot_interrupted").counter().count());
    assertEquals(1, meters.get(MetricCatalog.INTERRUPTION_RECEIVED.registeredName()).tag("message_type", "no_op").counter().count());
    assertEquals(1, left(url), "only the notice is left, in flight until the workflow handled it");

    var deleted = activities.deleteMessages(new DeleteMessagesRequest(url, List.of(notices.getFirst().receiptHandle())));

    assertEquals(1, deleted.deleted());
    assertEquals(0, left(url));
    assertEquals(3, counters.deletedCount());
  }

  /**
   * A worker shutting down cuts the idle long poll and the receive returns nothing; the same cut while the worker is
   * not stopping is a failure, and it is thrown (the workflow's retries handle it).
   */
  @Test
  void aLongPollCutByTheShutdownReturnsNothingAndOtherwiseFails() throws Exception {
    String url = aws.sqs().createQueue(r -> r.queueName(unique("farrier-interruption"))).queueUrl();
    for (boolean stoppingWhenCut : List.of(true, false)) {
      AtomicBoolean stopping = new AtomicBoolean();
      var own = new AwsClients(connection);
      var activities = new InterruptionActivitiesImpl(queue -> new SqsInterruptionQueue(own.sqs(), queue),
          null, null, new InterruptionCounters(new SimpleMeterRegistry()), stopping::get);
      var receive = CompletableFuture.supplyAsync(() -> activities.receive(new ReceiveInterruptionsRequest(url)));
      Thread.sleep(1_000); // the poll is waiting on the empty queue (up to 20 s)
      stopping.set(stoppingWhenCut);
      own.close();
      // Well within the 20 s long poll: the cut ends it, whichever way it ends.
      if (stoppingWhenCut) {
        var received = receive.get(15, TimeUnit.SECONDS);
        assertEquals(List.of(), received.notices());
      } else {
        assertThrows(ExecutionException.class, () -> receive.get(15, TimeUnit.SECONDS));
      }
    }
  }

  private static int left(String url) {
    var attributes = aws.sqs().getQueueAttributes(r -> r.queueUrl(url).attributeNames(
        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes();
    return Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
        + Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
  }
}
