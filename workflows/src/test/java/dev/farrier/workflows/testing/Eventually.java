package dev.farrier.workflows.testing;

import java.util.function.Supplier;

/** Waits (in real time, briefly) for a condition the test cannot block on directly, such as a query answer. */
public final class Eventually {
  private Eventually() {}

  public static <T> T await(String what, Supplier<T> probe, java.util.function.Predicate<T> done) {
    long giveUpAt = System.nanoTime() + 20_000_000_000L;
    T last = probe.get();
    while (!done.test(last)) {
      if (System.nanoTime() > giveUpAt) {
        throw new AssertionError("gave up waiting for " + what + "; last seen: " + last);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for " + what, e);
      }
      last = probe.get();
    }
    return last;
  }
}
