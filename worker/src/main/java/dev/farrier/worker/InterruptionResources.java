package dev.farrier.worker;

import dev.farrier.activities.cloud.aws.AwsClients;
import dev.farrier.activities.interruption.InterruptionCounters;
import dev.farrier.worker.config.WorkerSettings;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Singleton;

/**
 * The interruption queue's SQS client and the counters of what it received, present only when
 * {@code farrier.interruption.queue} is set.
 */
@Singleton
public class InterruptionResources implements AutoCloseable {
  private final AwsClients aws;
  private final InterruptionCounters counters;
  private volatile boolean stopping;

  public InterruptionResources(WorkerSettings settings, MeterRegistry meters) {
    this.aws = settings.interruptionEnabled() ? new AwsClients(settings.awsConnection()) : null;
    this.counters = new InterruptionCounters(meters);
  }

  public boolean enabled() {
    return aws != null;
  }

  public AwsClients aws() {
    if (aws == null) {
      throw new IllegalStateException("interruption handling is off (farrier.interruption.queue is empty)");
    }
    return aws;
  }

  public InterruptionCounters counters() {
    return counters;
  }

  /**
   * The worker is shutting down: cut the queue's connections now, so a receive waiting on an idle queue (a long poll of
   * up to 20 s) ends at once instead of holding the shutdown, and returns nothing ({@code InterruptionActivitiesImpl}).
   */
  public synchronized void stopReceiving() {
    if (aws != null && !stopping) {
      stopping = true;
      aws.close();
    }
  }

  public boolean stopping() {
    return stopping;
  }

  @Override
  public void close() {
    stopReceiving();
  }
}
