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
   */
  public static boolean awaitOrTimeout(Duration timeout, Supplier<Boolean> condition) {
    if (condition.get()) {
      return true;
    }
    @SuppressWarnings("unchecked")
    Promise<Void>[] timer = new Promise[1];
    CancellationScope scope = Workflow.newCancellationScope(() -> timer[0] = Workflow.newTimer(timeout));
    scope.run();
    Workflow.await(() -> timer[0].isCompleted() || condition.get());
    if (timer[0].isCompleted()) {
      return condition.get();
    }
    scope.cancel();
    return true;
  }
}
