package dev.farrier.localstack;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Polls a component until it answers, fails fast when its process exits, and reports its log when it gives up. */
final class Readiness {
  private static final Duration POLL = Duration.ofMillis(200);

  private Readiness() {}

  /** One readiness check; an exception counts as "not yet". */
  @FunctionalInterface
  interface Probe {
    boolean ready() throws Exception;
  }

  static void await(ManagedProcess process, Duration timeout, String expectation, Probe probe) {
    long deadline = System.nanoTime() + timeout.toNanos();
    String lastProblem = "";
    while (true) {
      if (!process.isAlive()) {
        throw new LocalStackException(process.name(),
            "exited with code " + process.exitCode() + " before " + expectation, process.logTail(40));
      }
      try {
        if (probe.ready()) {
          return;
        }
        lastProblem = "";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LocalStackException(process.name(), "interrupted while waiting until " + expectation, e);
      } catch (Exception e) {
        lastProblem = " (last probe: " + e + ")";
      }
      if (System.nanoTime() > deadline) {
        throw new LocalStackException(process.name(),
            "not ready after " + timeout.toSeconds() + "s: expected " + expectation + lastProblem, process.logTail(40));
      }
      try {
        TimeUnit.MILLISECONDS.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LocalStackException(process.name(), "interrupted while waiting until " + expectation, e);
      }
    }
  }
}
