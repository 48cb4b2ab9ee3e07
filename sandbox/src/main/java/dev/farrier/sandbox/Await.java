package dev.farrier.sandbox;

import java.time.Duration;
import java.util.function.Supplier;

/** Polls a condition until it holds or a deadline passes; the failure says what was awaited and what was seen. */
public final class Await {
  private Await() {}

  public static <T> T until(String what, Duration timeout, Supplier<T> probe, Supplier<String> diagnostics) {
    long deadline = System.nanoTime() + timeout.toNanos();
    RuntimeException last = null;
    while (System.nanoTime() < deadline) {
      try {
        T value = probe.get();
        if (value != null && !Boolean.FALSE.equals(value)) {
          return value;
        }
      } catch (RuntimeException e) {
        last = e;
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + what, e);
      }
    }
    var message = "timed out after " + timeout.toSeconds() + "s waiting for " + what + "\n" + diagnostics.get();
    throw last == null ? new IllegalStateException(message) : new IllegalStateException(message, last);
  }
}
