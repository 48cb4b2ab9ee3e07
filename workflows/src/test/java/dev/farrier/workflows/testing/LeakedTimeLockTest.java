package dev.farrier.workflows.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import io.temporal.workflow.Async;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Temporal's time-skipping test server keeps a lock on time for every activity task it queues and never gives it back
 * when the workflow cancels the activity before a worker picks it up (sdk-java #1138 is the same family). From then on
 * the test's simulated time runs at wall-clock speed: a randomized rollout test that aborts rollouts under load once
 * waited 15 minutes for a minute of simulated time. {@link SkippingClock} notices that time has stopped skipping and
 * gives the lock back; this test makes the leak on purpose and fails (by its timeout) without that.
 */
class LeakedTimeLockTest {
  private static final String QUEUE = "leak";

  @ActivityInterface
  public interface Nobody {
    void never();
  }

  @WorkflowInterface
  public interface Leaker {
    @WorkflowMethod
    long leakThenSleep();
  }

  /** Schedules an activity on a task queue no worker polls, cancels it while queued, then sleeps an hour. */
  public static class LeakerImpl implements Leaker {
    @Override
    public long leakThenSleep() {
      Nobody nobody = Workflow.newActivityStub(Nobody.class, ActivityOptions.newBuilder()
          .setTaskQueue("no-worker-polls-this").setStartToCloseTimeout(Duration.ofMinutes(1)).build());
      CancellationScope scope = Workflow.newCancellationScope(() -> Async.procedure(nobody::never));
      scope.run();
      Workflow.sleep(Duration.ofSeconds(1));
      scope.cancel();
      long from = Workflow.currentTimeMillis();
      Workflow.sleep(Duration.ofHours(1));
      return Workflow.currentTimeMillis() - from;
    }
  }

  private final TestWorkflowEnvironment env = TestWorkflowEnvironment.newInstance();

  @AfterEach
  void close() {
    env.close();
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void simulatedTimeSkipsAgainAfterAnActivityCancelledWhileQueuedLeaksItsLock() {
    Worker worker = env.newWorker(QUEUE);
    worker.registerWorkflowImplementationTypes(LeakerImpl.class);
    env.start();
    SkippingClock clock = new SkippingClock(env);
    Leaker leaker = env.getWorkflowClient().newWorkflowStub(Leaker.class,
        WorkflowOptions.newBuilder().setWorkflowId("leaker").setTaskQueue(QUEUE).build());
    var run = WorkflowClient.start(leaker::leakThenSleep);

    // An hour of simulated time, a second at a time, as the randomized tests wait; without the guard each second
    // takes a wall-clock second once the lock has leaked.
    for (int s = 0; s < 3_700; s++) {
      clock.sleep(Duration.ofSeconds(1));
    }

    long slept = env.getWorkflowClient().newUntypedWorkflowStub(run.getWorkflowId()).getResult(Long.class);
    assertTrue(slept >= Duration.ofHours(1).toMillis(), "the workflow's hour passed in simulated time: " + slept);
    assertEquals(1, clock.locksGivenBack(), "the one leaked lock was given back, and nothing more");
  }
}
