package dev.farrier.workflows.testing;

import io.temporal.api.testservice.v1.UnlockTimeSkippingRequest;
import io.temporal.serviceclient.TestServiceStubs;
import io.temporal.serviceclient.TestServiceStubsOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets simulated time pass in Temporal's time-skipping test environment, and keeps it skipping.
 *
 * <p>The test server locks time while it has an activity task queued or running, and unlocks it when the task
 * completes, fails or is cancelled once started. An activity the workflow cancels while its task is still queued
 * (a worker under load has not polled it yet: an abort landing between two attempts of a retried "not yet") never
 * gives its lock back, and from then on every simulated second costs a wall-clock second ({@link LeakedTimeLockTest}
 * makes the leak on purpose). So: when {@value #STALLED_SECONDS} s of wall time pass with simulated time moving no
 * faster than the wall clock, which none of the fakes' activities comes near (they answer at once), one lock is given
 * back through the test service, as the environment's own {@code sleep} does for the duration of a sleep.
 */
public final class SkippingClock {
  private static final Logger log = LoggerFactory.getLogger(SkippingClock.class);
  static final int STALLED_SECONDS = 15;

  private final TestWorkflowEnvironment env;
  private TestServiceStubs testService;
  private long stalledNanos;
  private int givenBack;

  public SkippingClock(TestWorkflowEnvironment env) {
    this.env = env;
  }

  /** Lets {@code duration} of simulated time pass (as {@link TestWorkflowEnvironment#sleep}), giving back a leaked lock. */
  public synchronized void sleep(Duration duration) {
    long start = System.nanoTime();
    env.sleep(duration);
    long wall = System.nanoTime() - start;
    boolean skipped = wall < duration.toNanos() * 9 / 10;
    stalledNanos = skipped ? 0 : stalledNanos + wall;
    if (stalledNanos >= Duration.ofSeconds(STALLED_SECONDS).toNanos()) {
      stalledNanos = 0;
      giveLockBack();
    }
  }

  /** How many leaked locks were given back. */
  public synchronized int locksGivenBack() {
    return givenBack;
  }

  private void giveLockBack() {
    if (testService == null) {
      testService = TestServiceStubs.newServiceStubs(TestServiceStubsOptions.newBuilder()
          .setChannel(env.getWorkflowServiceStubs().getRawChannel()).validateAndBuildWithDefaults());
    }
    log.warn("simulated time has moved at wall-clock speed for {} s: giving back a lock the test server leaked",
        STALLED_SECONDS);
    testService.blockingStub().unlockTimeSkipping(UnlockTimeSkippingRequest.getDefaultInstance());
    givenBack++;
  }
}
