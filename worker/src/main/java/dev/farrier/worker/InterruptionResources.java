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

  @Override
  public void close() {
    if (aws != null) {
      aws.close();
    }
  }
}
