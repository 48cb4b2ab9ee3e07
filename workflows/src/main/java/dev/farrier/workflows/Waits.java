package dev.farrier.workflows;

import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.function.Supplier;

/** Waiting in workflow code without leaving timers behind. */
public final class Waits {
  private Waits() {}

  /**
   * Waits until {@code condition} holds or {@code timeout} passes; returns whether the condition ended the wait.
   * Unlike {@code Workflow.await(Duration, ...)}, the timer is cancelled when the condition wins, so an entity woken
   * by many signals does not collect stale timers that each fire (and cost a workflow task) later.
   *
   * <p>A timer already due when the condition wins is left to fire rather than cancelled: the server may have fired it
   * while the workflow task ran. The real server then drops the fire and records the cancel, but Temporal's
   * time-skipping test server refuses the cancel and leaves the run without a workflow task for good
   * (temporalio/sdk-java#2606), which hung the tests of rolling upgrades whose gates waited on timers due at the same
   * instant.
   */
  public static boolean awaitOrTimeout(Duration timeout, Supplier<Boolean> condition) {
    if (condition.get()) {
      return true;
    }
    @SuppressWarnings("unchecked")
    Promise<Void>[] timer = new Promise[1];
    long due = Workflow.currentTimeMillis() + timeout.toMillis();
    CancellationScope scope = Workflow.newCancellationScope(() -> timer[0] = Workflow.newTimer(timeout));
    scope.run();
    Workflow.await(() -> timer[0].isCompleted() || condition.get());
    if (timer[0].isCompleted()) {
      return condition.get();
    }
    if (Workflow.currentTimeMillis() < due) {
      scope.cancel();
    }
    return true;
  }
}
