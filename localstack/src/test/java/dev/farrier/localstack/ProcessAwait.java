package dev.farrier.localstack;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Test helper: waits (bounded, not asserted on) until processes have exited. */
final class ProcessAwait {
  private ProcessAwait() {}

  /** True when none of {@code handles} is alive within {@code timeout}. */
  static boolean allExited(List<ProcessHandle> handles, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (handles.stream().noneMatch(ProcessHandle::isAlive)) {
        return true;
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    return handles.stream().noneMatch(ProcessHandle::isAlive);
  }

  static String alive(List<ProcessHandle> handles) {
    return handles.stream().filter(ProcessHandle::isAlive)
        .map(h -> h.pid() + " " + h.info().commandLine().orElse("?")).toList().toString();
  }
}
