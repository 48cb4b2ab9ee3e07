package dev.farrier.worker;

import dev.farrier.activities.cloud.aws.AwsClients;
import dev.farrier.activities.interruption.InterruptionCounters;
import dev.farrier.worker.config.WorkerSettings;
import jakarta.inject.Singleton;

/**
 * The interruption queue's SQS client and the counters of what it received, present only when
 * {@code farrier.interruption.queue} is set.
 */
@Singleton
public class InterruptionResources implements AutoCloseable {
  private final AwsClients aws;
  private final InterruptionCounters counters = new InterruptionCounters();

  public InterruptionResources(WorkerSettings settings) {
    this.aws = settings.interruptionEnabled() ? new AwsClients(settings.awsConnection()) : null;
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
