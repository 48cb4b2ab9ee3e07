package dev.farrier.worker.observability;

import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Temporal answers: a {@code GetSystemInfo} call on the worker's own connection within {@link #DEADLINE}. */
public final class TemporalCheck implements DependencyCheck {
  static final Duration DEADLINE = Duration.ofSeconds(2);

  private final WorkflowServiceStubs stubs;

  public TemporalCheck(WorkflowServiceStubs stubs) {
    this.stubs = stubs;
  }

  @Override
  public String name() {
    return "temporal";
  }

  @Override
  public void check() {
    stubs.blockingStub().withDeadlineAfter(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
        .getSystemInfo(GetSystemInfoRequest.getDefaultInstance());
  }
}
